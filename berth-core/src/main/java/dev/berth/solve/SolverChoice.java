package dev.berth.solve;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What {@code --solver} asks for: {@code auto} (the planner picks and combines solvers, and
 * minimises every space within the work budget), or one {@link SolverKind}. The plan artifact
 * records the choice by its id.
 */
public enum SolverChoice {
    AUTO("auto", null),
    GREEDY("greedy", SolverKind.GREEDY),
    BEST_FIT("best-fit", SolverKind.BEST_FIT),
    SKYLINE("skyline", SolverKind.SKYLINE),
    EXACT("exact", SolverKind.EXACT);

    private final String id;
    private final SolverKind kind;

    SolverChoice(String id, SolverKind kind) {
        this.id = id;
        this.kind = kind;
    }

    public String id() {
        return id;
    }

    /** The one solver asked for, or empty for {@code auto}. */
    public Optional<SolverKind> kind() {
        return Optional.ofNullable(kind);
    }

    /** True when the choice searches (auto, exact): only then can a search prove a height optimal. */
    public boolean searches() {
        return kind == null || kind.complete();
    }

    public static Optional<SolverChoice> byId(String id) {
        return Arrays.stream(values()).filter(c -> c.id.equals(id)).findFirst();
    }

    /** The ids, comma-separated, for messages and help ("auto, greedy, best-fit, skyline, exact"). */
    public static String ids() {
        return Arrays.stream(values()).map(SolverChoice::id).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return id;
    }
}
