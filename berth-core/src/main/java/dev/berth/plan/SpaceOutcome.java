package dev.berth.plan;

import dev.berth.artifact.Optimality;
import dev.berth.solve.Outcome;
import dev.berth.solve.SolverKind;

import java.util.Optional;

/**
 * What searching one space gave ({@link SpaceSearch}): the offsets to admit, the solver that
 * made them, their height; the outcome of an exact search at the limit when one ran and found
 * nothing within it (a proof, or an undecided search: the diagnosis of a capacity failure
 * reports it); the static lower bound of the height and the lower end the search proved; why
 * the bracket is open (empty when the height is proved the smallest); whether the clock
 * stopped a search.
 */
record SpaceOutcome(long[] offsets, SolverKind solver, long height, Optional<Outcome> exact, long lowerBound,
                    long provedLower, Optional<Optimality.Open> open, boolean timeLimited) {
}
