package dev.berth.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class ProgressBarTest {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final ProgressBar bar = new ProgressBar(new PrintStream(bytes, true, StandardCharsets.UTF_8), 60);

    private String drawn() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void nothingIsDrawnDuringTheFirstSecond() {
        bar.searching(0.0, 10);
        bar.searching(0.99, 10);
        bar.finish();
        assertThat(drawn()).isEmpty();
    }

    @Test
    void aLongSearchDrawsTimeUsedOfTheLimitThenErasesItself() {
        bar.searching(1.0, 10);
        String first = drawn();
        assertThat(first).startsWith("\rberth: searching [").endsWith("] 1.0 s of 10 s");
        assertThat(first.length() - 1).isLessThan(60);
        assertThat(first.chars().filter(c -> c == '#').count()).isEqualTo(Math.round(0.1 * (first.indexOf(']')
                - first.indexOf('[') - 1)));
        bar.searching(1.01, 10); // within the same frame: not redrawn
        assertThat(drawn()).isEqualTo(first);
        bar.searching(5.0, 10);
        assertThat(drawn()).endsWith("] 5.0 s of 10 s");
        int before = drawn().length();
        bar.finish();
        String erase = drawn().substring(before);
        assertThat(erase).matches("\r +\r");
        assertThat(erase.length() - 2).isEqualTo(first.length() - 1);
        bar.finish();
        assertThat(drawn().length()).isEqualTo(before + erase.length());
    }

    @Test
    void aMinimisationShowsItsSpaceAndBracket() {
        ProgressBar wide = new ProgressBar(new PrintStream(bytes, true, StandardCharsets.UTF_8), 80);
        wide.bracket("global", 485376, 509952, "start");
        wide.searching(1.5, 10);
        assertThat(drawn()).startsWith("\rberth: searching global [485376, 509952] [").endsWith("] 1.5 s of 10 s");
        assertThat(drawn().length() - 1).isLessThan(80);
        wide.finish();
        // too narrow for the label and a bar of 10 columns: the bar alone
        String narrow = ProgressBar.line(1.5, 10, 60, "global [485376, 509952] ");
        assertThat(narrow).startsWith("berth: searching [").hasSizeLessThan(60);
    }

    @Test
    void anUnlimitedSearchShowsMovementNotAFraction() {
        String a = ProgressBar.line(2.0, Double.POSITIVE_INFINITY, 60);
        String b = ProgressBar.line(2.125, Double.POSITIVE_INFINITY, 60);
        assertThat(a).endsWith("] 2.0 s").contains("#");
        assertThat(a.chars().filter(c -> c == '#').count()).isEqualTo(1);
        assertThat(a).isNotEqualTo(b.replace("2.1 s", "2.0 s"));
    }

    @Test
    void theBarNeverOverflowsAndIsFullAtTheLimit() {
        String full = ProgressBar.line(12.0, 10, 80);
        assertThat(full).doesNotContain(".]").contains("#]");
        assertThat(full.length()).isLessThan(80);
    }

    @Test
    void progressOnlyOnATerminalAndNeverWithQuietOrJson() {
        assertThat(ProgressBar.wanted(false, false, true)).isTrue();
        assertThat(ProgressBar.wanted(true, false, true)).isFalse();
        assertThat(ProgressBar.wanted(false, true, true)).isFalse();
        assertThat(ProgressBar.wanted(false, false, false)).isFalse();
    }
}
