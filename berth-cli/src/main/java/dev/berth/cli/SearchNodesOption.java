package dev.berth.cli;

import dev.berth.failure.BerthException;
import dev.berth.failure.Require;
import dev.berth.plan.Planner;
import dev.berth.solve.SolverChoice;
import picocli.CommandLine.Option;

/**
 * {@code --search-nodes N}, the same for {@code plan} and {@code bench}: the exact search's work
 * per space in search nodes, in place of the budget its size and effort give
 * ({@link Planner.Options#withSearchNodes}).
 */
final class SearchNodesOption {
    @Option(names = "--search-nodes", paramLabel = "N", description = "The exact search's work per space it "
            + "searches (auto or exact), in search nodes, in place of the budget chosen by size and effort: for the "
            + "narrowing, and for a first placement within a finite limit. The same N gives the same plan on every "
            + "machine; a large N may need --time-limit raised.")
    Long nodes;

    /** Checks N, when given, against the solver chosen: at least 1 node, and a solver that searches. */
    void check(SolverChoice choice) {
        if (nodes == null) {
            return;
        }
        if (nodes < 1) {
            throw Require.invalid("--search-nodes", Long.toString(nodes),
                    "must be at least 1 search node, got " + nodes);
        }
        if (!choice.searches()) {
            throw BerthException.invalid("--search-nodes", Long.toString(nodes), "--search-nodes sets the exact "
                    + "search's work: it needs --solver auto or exact, not the heuristic " + choice.id());
        }
    }

    /** {@code options} with N when it was given; {@link #check} comes first. */
    Planner.Options applyTo(Planner.Options options) {
        return nodes == null ? options : options.withSearchNodes(nodes);
    }

    /** The option as a command line repeats it: empty when not given. */
    String describe() {
        return nodes == null ? "" : " --search-nodes " + nodes;
    }
}
