package dev.berth.schedule;

import dev.berth.failure.Require;

import java.util.List;

/**
 * A search's answer for one {@link Graph}: the chosen order and in-place pairs, and what they
 * are worth against the file order and the bound.
 *
 * @param order          the operators in the chosen order (names)
 * @param pairs          the in-place pairs the chosen order takes, in order of their operators
 * @param filePeak       peak live bytes of the listed order with no buffer written over another
 * @param fileLevelPeak  peak live bytes of the listed order with the level's pairs
 * @param peak           peak live bytes of the chosen order and pairs (never above {@code filePeak})
 * @param bound          a lower bound on the peak of every order and every choice of pairs the
 *                       level allows (with order {@code FILE}, still over every order)
 * @param proved         {@code peak == bound}: no order and no choice of pairs does better
 * @param nodes          search nodes spent (the work, deterministic)
 * @param segments       the parts the graph split into at operators every order runs at the same
 *                       point (each searched on its own)
 * @param openSegments   segments whose search ran out of nodes before it proved its part
 */
public record Schedule(List<String> order, List<Pair> pairs, long filePeak, long fileLevelPeak, long peak, long bound,
                       boolean proved, long nodes, int segments, int openSegments) {

    /** An output written over an input at the operator that writes it, for {@code reason}. */
    public record Pair(String output, String input, String operator, Reuse reason) {
        public Pair {
            Require.nonNull(output, "output");
            Require.nonNull(input, "input");
            Require.nonNull(operator, "operator");
            Require.nonNull(reason, "reason");
        }
    }

    public Schedule {
        order = Require.elements(order, "order");
        pairs = Require.elements(pairs, "pairs");
    }
}
