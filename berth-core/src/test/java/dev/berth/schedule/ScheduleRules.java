package dev.berth.schedule;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The live-byte rules of {@link Graph} written out again from its Javadoc, without the search's
 * code: where each buffer is live in a given order, which chosen pairs obey the rules, and the
 * peak. For the tests of the search and of the importers' graphs.
 */
public final class ScheduleRules {
    private ScheduleRules() {
    }

    /** {@code v} rounded up to a multiple of {@code a}. */
    public static long up(long v, long a) {
        return (v + a - 1) / a * a;
    }

    /**
     * The peak of {@code s}'s order with its pairs, after checking that every pair is declared on
     * its operator and allowed by {@code level}; null if a pair breaks a rule in that order.
     */
    public static Long peakOf(Graph g, Schedule s, InPlace level) {
        List<Graph.Overwrite> chosen = new ArrayList<>();
        Map<Graph.Overwrite, String> opOf = new HashMap<>();
        for (Schedule.Pair p : s.pairs()) {
            assertThat(level.allows(p.reason())).isTrue();
            Graph.Overwrite w = new Graph.Overwrite(p.output(), p.input(), p.reason());
            Graph.Operator op = g.operators().stream().filter(x -> x.name().equals(p.operator())).findFirst().orElseThrow();
            assertThat(op.overwrites()).contains(w);
            chosen.add(w);
            opOf.put(w, p.operator());
        }
        return peak(g, s.order(), chosen, opOf);
    }

    /** The pairs of {@code chosen} obey the rules in {@code order}: or null if they break one. Else the peak. */
    public static Long peak(Graph g, List<String> order, List<Graph.Overwrite> chosen, Map<Graph.Overwrite, String> opOf) {
        int n = order.size();
        Map<String, Integer> pos = new HashMap<>();
        for (int i = 0; i < n; i++) {
            pos.put(order.get(i), i);
        }
        Map<String, Integer> start = new HashMap<>();
        Map<String, Integer> end = new HashMap<>();
        Map<String, Long> size = new HashMap<>();
        for (Graph.Buffer b : g.buffers()) {
            size.put(b.name(), up(b.bytes(), g.alignment()));
            int last = -1;
            int made = 0;
            for (Graph.Operator op : g.operators()) {
                if (op.reads().contains(b.name())) {
                    last = Math.max(last, pos.get(op.name()));
                }
                if (op.writes().contains(b.name())) {
                    made = pos.get(op.name());
                }
            }
            switch (b.role()) {
                case INPUT -> { start.put(b.name(), 0); end.put(b.name(), Math.max(0, last)); }
                case INTERMEDIATE -> { start.put(b.name(), made); end.put(b.name(), Math.max(made, last)); }
                case OUTPUT -> { start.put(b.name(), made); end.put(b.name(), n - 1); }
                case CONSTANT, VARIABLE -> { start.put(b.name(), 0); end.put(b.name(), n - 1); }
            }
        }
        Set<String> hosts = new HashSet<>();
        Set<String> guests = new HashSet<>();
        long[] saved = new long[n];
        for (Graph.Overwrite p : chosen) {
            Role inRole = g.buffers().stream().filter(b -> b.name().equals(p.input())).findFirst().orElseThrow().role();
            int at = pos.get(opOf.get(p));
            if (!hosts.add(p.input()) || !guests.add(p.output()) || end.get(p.input()) != at
                    || !(inRole == Role.INPUT || inRole == Role.INTERMEDIATE) || size.get(p.output()) > size.get(p.input())) {
                return null;
            }
            saved[at] += size.get(p.output());
        }
        long peak = 0;
        for (int t = 0; t < n; t++) {
            long live = -saved[t];
            for (Graph.Buffer b : g.buffers()) {
                if (start.get(b.name()) <= t && t <= end.get(b.name())) {
                    live += size.get(b.name());
                }
            }
            peak = Math.max(peak, live);
        }
        return peak;
    }

}
