package dev.berth.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Names read from an input file (workload, buffers, fixed regions, tiled tensors, instance files)
 * that hold control characters (ESC, LF, CR, TAB, DEL, C1) reach the terminal only as their
 * codes ({@code dev.berth.text.Visible}): no text output of any command carries one raw, so an
 * input file cannot inject escape sequences or lines of its own.
 */
class ControlCharactersCliTest {
    /** ESC [31m, a line feed and a carriage return inside a buffer's name, as the JSON file writes them. */
    private static final String EVIL = "evil\\u001b[31m\\nline\\rover";
    private static final String EVIL_SHOWN = "evil\\u001b[31m\\u000aline\\u000dover";

    @TempDir
    Path dir;

    /** No control character but the line feeds that end lines, none inside a name. */
    private static void noRawControlCharacters(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            assertThat(Character.isISOControl(c) && c != '\n')
                    .as("U+%04X at %d in:%n%s", (int) c, i, text).isFalse();
        }
        assertThat(text).doesNotContain("[31m\nline").doesNotContain("\u001b").doesNotContain("\r");
    }

    private static void raw(Run r) {
        noRawControlCharacters(r.out());
        noRawControlCharacters(r.err());
    }

    private Path workload() throws IOException {
        return Files.writeString(dir.resolve("w.json"), """
                { "workload": "w\\u001b]0;title\\u0007",
                  "buffers": [
                    { "name": "%s", "size": "4KiB", "space": "global", "live": [0, 2] },
                    { "name": "tab\\there", "size": "2KiB", "space": "sram", "live": [1, 2] },
                    { "name": "del\\u007f c1\\u009b", "size": "1KiB", "space": ["weights", "global"], "live": [0, 1] },
                    { "name": "tiled\\u001b[2J", "size": "64KiB", "space": "global", "live": [1, 3],
                      "tile": { "through": "sram", "buffers": 2 } } ],
                  "fixed": [ { "name": "fixed\\u001b[1A", "space": "global", "offset": 0, "size": 64, "live": [0, 3] } ] }
                """.formatted(EVIL));
    }

    @Test
    void planShowTablesAndPictureWriteNamesVisibly() throws IOException {
        Path plan = dir.resolve("plan.json");
        Run r = Run.of("plan", workload().toString(), "--show", "--width", "200", "-o", plan.toString(),
                "--report", dir.resolve("plan.html").toString());
        assertThat(r.exit()).as(r.err()).isZero();
        raw(r);
        // the HTML report keeps a name's line feeds and tabs (a browser shows them as spaces), nothing else raw
        assertThat(Files.readString(dir.resolve("plan.html")).chars()
                .filter(c -> Character.isISOControl(c) && c != '\n' && c != '\t')).isEmpty();
        assertThat(r.out()).contains("plan w\\u001b]0;title\\u0007 on target npu-ref")
                .contains(EVIL_SHOWN).contains("tab\\u0009here").contains("fixed\\u001b[1A")
                .contains("tiles: tiled\\u001b[2J in ");

        Run report = Run.of("report", plan.toString(), "-o", dir.resolve("again.html").toString());
        assertThat(report.exit()).as(report.err()).isZero();
        raw(report);
        Run deploy = Run.of("check-deploy", plan.toString(), "--provide", "global=1MiB");
        assertThat(deploy.exit()).as(deploy.err()).isZero();
        raw(deploy);
    }

    @Test
    void anErrorMessageNamingTheBufferWritesItVisibly() throws IOException {
        Path w = Files.writeString(dir.resolve("bad.json"), """
                { "buffers": [ { "name": "%s", "size": "1MiB", "space": "sram", "live": [0, 1] } ] }
                """.formatted(EVIL));
        Run r = Run.of("plan", w.toString());
        assertThat(r.exit()).isEqualTo(5);
        raw(r);
        assertThat(r.err()).startsWith("berth: capacity-exceeded: ").contains(EVIL_SHOWN);
        assertThat(r.err().lines()).hasSize(1);

        Path twice = Files.writeString(dir.resolve("twice.json"), """
                { "buffers": [ { "name": "%1$s", "size": 8, "space": "global", "live": [0, 1] },
                               { "name": "%1$s", "size": 8, "space": "global", "live": [0, 1] } ] }
                """.formatted(EVIL));
        Run bad = Run.of("plan", twice.toString());
        assertThat(bad.exit()).isEqualTo(2);
        raw(bad);
        assertThat(bad.err()).contains(EVIL_SHOWN);
    }

    @Test
    void benchTablesWriteInstanceNamesVisibly() throws IOException {
        Path d = Files.createDirectories(dir.resolve("bench"));
        Files.writeString(d.resolve("x\u001b[31m\nrow.4096.csv"), "id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\n");
        Run r = Run.of("bench", "minimalloc", d.toString(), "--capacity", "4096", "--threads", "1");
        assertThat(r.exit()).as(r.err()).isZero();
        raw(r);
        assertThat(r.out()).contains("x\\u001b[31m\\u000arow.4096.csv");
        Run i = Run.of("bench", "idealloc", d.toString(), "--threads", "1");
        assertThat(i.exit()).as(i.err()).isZero();
        raw(i);
    }

    /**
     * JSON output (stdout with {@code --json}, the plan artifact, a failure as JSON) escapes DEL and
     * the C1 codes too, not only what JSON requires, and a JSON reader gets every name back as it was.
     */
    @Test
    void jsonOutputEscapesEveryControlCharacterAndKeepsTheNames() throws IOException {
        Path plan = dir.resolve("plan.json");
        Run r = Run.of("plan", workload().toString(), "--json", "-o", plan.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        raw(r);
        String artifact = Files.readString(plan);
        noRawControlCharacters(artifact);
        assertThat(artifact).contains("del\\u007F c1\\u009B");
        ObjectMapper json = new ObjectMapper();
        assertThat(json.readTree(artifact).findValuesAsText("name"))
                .contains("del\u007f c1\u009b", "evil\u001b[31m\nline\rover", "tab\there");
        assertThat(json.readTree(r.out()).get("spaces").has("global")).isTrue();

        Path w = Files.writeString(dir.resolve("bad.json"), """
                { "buffers": [ { "name": "c1\\u0085", "size": "1MiB", "space": "sram", "live": [0, 1] } ] }
                """);
        Run bad = Run.of("plan", w.toString(), "--json");
        assertThat(bad.exit()).isEqualTo(5);
        raw(bad);
        assertThat(bad.out()).contains("c1\\u0085");
    }
}
