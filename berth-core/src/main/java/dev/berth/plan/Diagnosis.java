package dev.berth.plan;

import dev.berth.admit.Admission;
import dev.berth.arith.Checked;
import dev.berth.failure.BerthException;
import dev.berth.failure.Failure;
import dev.berth.failure.Shortfall;
import dev.berth.solve.Budget;
import dev.berth.sweep.LiveBytes;
import dev.berth.solve.Outcome;
import dev.berth.solve.SpaceProblem;
import dev.berth.solve.exact.ExactSolver;
import dev.berth.target.Space;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Says why a finite space does not fit (contract §7 {@code capacity-exceeded}): either the
 * reserved bytes live at one step exceed the capacity (provably infeasible, with the step
 * and the largest reservations live there), or they fit and the placement failed, with what
 * the search proved and, when a complete search proved it, a small infeasible subset found
 * by a deletion filter. The message states facts; what could help is a {@link Shortfall}, for
 * the caller to phrase (the core does not know the command line's options).
 */
final class Diagnosis {
    private static final int LARGEST_SHOWN = 5;

    private Diagnosis() {
    }

    static BerthException capacity(Space s, SpaceProblem p, Failure.CapacityExceeded first,
                                   SpaceOutcome o, Budget budget) {
        long usable = s.usableCapacity().orElseThrow();
        int n = p.size();
        int[] f = new int[n];
        int[] l = new int[n];
        long[] r = new long[n];
        for (int i = 0; i < n; i++) {
            f[i] = p.first(i);
            l[i] = p.last(i);
            r[i] = p.reserved(i);
        }
        LiveBytes.Peak at = LiveBytes.firstAbove(f, l, r, usable);
        StringBuilder msg = new StringBuilder(first.message());
        String source = Admission.capacitySource(s);
        if (at.bytes() > usable) {
            return liveBytesExceed(p, first, msg, at, usable, source, f, l, r);
        }
        for (int i = 0; i < n; i++) {
            long end = p.isFixed(i) ? Checked.saturatingAdd(p.fixedOffset(i), r[i]) : 0;
            if (end > usable) {
                return fixedPastCapacity(p, first, msg, i, r[i], end, usable, source);
            }
        }
        msg.append(". The reserved bytes fit at every step (peak ").append(at.bytes()).append(" of ").append(usable)
                .append(at.step() >= 0 ? " at step " + at.step() : "").append("), but ");
        Shortfall why = searchShortfall(p, o, budget, msg, usable);
        return new BerthException(new Failure.CapacityExceeded(msg.toString(), first.facts(), why));
    }

    /** The live reservations at step {@code at} need more than {@code usable}: the largest of them named. */
    private static BerthException liveBytesExceed(SpaceProblem p, Failure.CapacityExceeded first, StringBuilder msg,
                                                  LiveBytes.Peak at, long usable, String source,
                                                  int[] f, int[] l, long[] r) {
        List<Integer> live = new ArrayList<>();
        for (int i = 0; i < p.size(); i++) {
            if (f[i] <= at.step() && at.step() <= l[i] && r[i] > 0) {
                live.add(i);
            }
        }
        live.sort(Comparator.comparingLong((Integer i) -> -r[i]).thenComparingInt(i -> i));
        msg.append(". No placement can fit: at step ").append(at.step()).append(" the live reservations need ")
                .append(at.bytes()).append(" bytes but ").append(usable).append(" are available (")
                .append(source).append("), ").append(at.bytes() - usable).append(" bytes over; largest live there: ");
        for (int k = 0; k < Math.min(LARGEST_SHOWN, live.size()); k++) {
            int i = live.get(k);
            msg.append(k == 0 ? "" : ", ").append(p.name(i)).append(' ').append(r[i]);
        }
        if (live.size() > LARGEST_SHOWN) {
            msg.append(", and ").append(live.size() - LARGEST_SHOWN).append(" more");
        }
        return new BerthException(new Failure.CapacityExceeded(msg.toString(), first.facts(),
                new Shortfall.LiveBytesExceed(at.step(), at.bytes(), usable)));
    }

    /** The fixed region {@code i}, where the input put it, ends at {@code end}, past {@code usable}. */
    private static BerthException fixedPastCapacity(SpaceProblem p, Failure.CapacityExceeded first, StringBuilder msg,
                                                    int i, long reserved, long end, long usable, String source) {
        msg.append(". No placement can fit: the fixed region ").append(p.name(i)).append(" sits at ")
                .append(p.fixedOffset(i)).append(" (").append(reserved).append(" bytes reserved), where the input "
                + "put it, and ends at ").append(end).append(", past the ").append(usable)
                .append(" bytes available (").append(source).append(")");
        return new BerthException(new Failure.CapacityExceeded(msg.toString(), first.facts(),
                new Shortfall.FixedPastCapacity(p.name(i), p.fixedOffset(i), reserved, usable)));
    }

    /**
     * Why no placement was found when the reserved bytes fit at every step: a complete search's
     * proof (with a small infeasible subset), a complete search that stopped, or none that ran;
     * its sentence appended to {@code msg}.
     */
    private static Shortfall searchShortfall(SpaceProblem p, SpaceOutcome o, Budget budget, StringBuilder msg,
                                             long usable) {
        Outcome exact = o.exact().orElse(null);
        if (exact instanceof Outcome.Infeasible) {
            msg.append("a complete search proved that no placement of these reservations fits in ").append(usable)
                    .append(" bytes");
            List<String> subset = deletionFilter(p, budget);
            if (!subset.isEmpty()) {
                msg.append("; these ").append(subset.size()).append(" alone do not fit: ").append(String.join(", ", subset));
            }
            return new Shortfall.ProvedInfeasible(subset);
        } else if (exact instanceof Outcome.Unknown u) {
            msg.append("the ").append(o.solver()).append(" placement reached ").append(o.height())
                    .append(" and the exact search stopped without a placement or a proof (").append(u.reason())
                    .append(")");
            return new Shortfall.SearchStopped(o.solver().id(), o.height(), u.reason(),
                    o.timeLimited() || budget.stoppedByClock());
        }
        msg.append("the ").append(o.solver()).append(" placement reached ").append(o.height());
        return new Shortfall.NoCompleteSearch(o.solver().id(), o.height());
    }

    /**
     * Drops items one at a time (smallest first) while the rest stays provably infeasible.
     * Returns the names left, or an empty list when time ran out before the filter finished.
     */
    static List<String> deletionFilter(SpaceProblem p, Budget budget) {
        List<Integer> keep = new ArrayList<>();
        for (int i = 0; i < p.size(); i++) {
            keep.add(i);
        }
        List<Integer> order = new ArrayList<>(keep);
        order.sort(Comparator.comparingLong(p::reserved).thenComparingInt(i -> i));
        ExactSolver exact = new ExactSolver();
        for (int drop : order) {
            if (budget.exhausted()) {
                return List.of();
            }
            List<Integer> trial = new ArrayList<>(keep);
            trial.remove(Integer.valueOf(drop));
            Outcome o = exact.solve(p.subset(trial.stream().mapToInt(Integer::intValue).toArray()), budget);
            if (o instanceof Outcome.Infeasible) {
                keep = trial;
            } else if (o instanceof Outcome.Unknown) {
                return List.of();
            }
        }
        List<String> names = new ArrayList<>();
        for (int i : keep) {
            names.add(p.name(i));
        }
        return names;
    }
}
