package dev.berth.cli;

import dev.berth.failure.BerthException;
import dev.berth.failure.Require;
import dev.berth.solve.SolverChoice;

import java.util.Arrays;

/**
 * The checks {@code plan} and {@code bench} make of their search options alike: the solver's
 * name, {@code --minimize} only with a solver that searches, and a time limit that is a positive
 * finite number of seconds. Each failure is invalid-input naming the option.
 */
final class SearchOptions {
    private SearchOptions() {
    }

    /** The solver named {@code id}, checked with {@code --minimize} when it is given. */
    static SolverChoice solver(String id, boolean minimize) {
        SolverChoice choice = SolverChoice.byId(id).orElseThrow(() -> Require.invalid("--solver", id,
                "'" + id + "' is not one of " + SolverChoice.ids() + Suggestion.didYouMean(id,
                        Arrays.stream(SolverChoice.values()).map(SolverChoice::id).toList())));
        if (minimize && !choice.searches()) {
            throw BerthException.invalid("--minimize", "--minimize needs --solver auto or exact (it searches for "
                    + "smaller plans), not the heuristic " + choice.id());
        }
        return choice;
    }

    /** {@code seconds}, when it is a positive finite number. */
    static double timeLimit(double seconds) {
        if (!(seconds > 0) || Double.isInfinite(seconds)) {
            throw Require.invalid("--time-limit", Double.toString(seconds),
                    "must be a positive number of seconds");
        }
        return seconds;
    }
}
