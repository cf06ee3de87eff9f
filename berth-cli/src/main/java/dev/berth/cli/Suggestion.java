package dev.berth.cli;

import java.util.Collection;
import java.util.Optional;

/**
 * The one rule for "did you mean": the candidate closest to what was given by edit distance
 * (insertions, deletions, substitutions and swaps of two neighbours, each 1), if it is within a
 * third of the longer word's length (at least 1, so one typo in a short word counts); of equally
 * close candidates the first. Used for misspelt option values ({@code --solver exat}); picocli
 * finds the options and commands themselves ({@link Main}).
 */
final class Suggestion {
    private Suggestion() {
    }

    static Optional<String> closest(String given, Collection<String> candidates) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String c : candidates) {
            int d = distance(given, c);
            if (d < bestDistance && d <= Math.max(1, Math.max(given.length(), c.length()) / 3)) {
                best = c;
                bestDistance = d;
            }
        }
        return Optional.ofNullable(best);
    }

    /** {@code ", did you mean 'X'?"} for the closest candidate, or nothing. */
    static String didYouMean(String given, Collection<String> candidates) {
        return closest(given, candidates).map(c -> "; did you mean '" + c + "'?").orElse("");
    }

    /** The optimal string alignment distance of {@code a} and {@code b}. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
