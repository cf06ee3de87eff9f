package dev.berth.plan;

import java.util.Optional;

/** The {@code --solver} choices of the contract. */
public enum SolverChoice {
    AUTO("auto"), GREEDY("greedy"), BEST_FIT("best-fit"), EXACT("exact");

    private final String id;

    SolverChoice(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    public static Optional<SolverChoice> byId(String id) {
        for (SolverChoice c : values()) {
            if (c.id.equals(id)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }
}
