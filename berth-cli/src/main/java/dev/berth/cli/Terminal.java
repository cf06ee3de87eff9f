package dev.berth.cli;

/** What little the CLI needs to know about the terminal. */
final class Terminal {
    private Terminal() {
    }

    /** {@code $COLUMNS} when set and sane, else 100. */
    static int columns() {
        String c = System.getenv("COLUMNS");
        if (c != null) {
            try {
                int v = Integer.parseInt(c.strip());
                if (v >= 40 && v <= 1000) {
                    return v;
                }
            } catch (NumberFormatException e) {
                // fall through to the default
            }
        }
        return 100;
    }
}
