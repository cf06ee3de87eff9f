package dev.berth.io.fuzz;

/**
 * Settings shared by the fuzz tests. In a normal build ({@code mvn verify}) Jazzer runs each
 * fuzz test once per file of its inputs directory (seeds and past findings) as a regression
 * test. With {@code JAZZER_FUZZ=1} (the {@code -Pfuzz} profile) it fuzzes one test for
 * {@link #MAX_DURATION}.
 */
final class FuzzSettings {
    /**
     * How long {@code -Pfuzz} fuzzes each target. Jazzer takes it from the annotation only (a
     * later {@code -max_total_time} would be overridden), so it is a constant here.
     */
    static final String MAX_DURATION = "2m";

    private FuzzSettings() {
    }
}
