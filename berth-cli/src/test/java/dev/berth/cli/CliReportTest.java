package dev.berth.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code berth report}, {@code plan --report}, {@code --quiet}, {@code --version} and {@code completion}, end to end. */
class CliReportTest {
    @TempDir
    Path dir;

    private Path workload() throws IOException {
        Path w = dir.resolve("w.json");
        Files.writeString(w, """
                { "workload": "w", "buffers": [
                    { "name": "a", "size": "4KiB", "space": "global", "live": [0, 1] },
                    { "name": "b", "size": "2KiB", "space": "global", "live": [1, 2] },
                    { "name": "s", "size": "1KiB", "space": "sram", "alignment": 32, "live": [0, 2] } ] }
                """);
        return w;
    }

    @Test
    void reportWritesOneSelfContainedFileFromAPlan() throws IOException {
        Path plan = dir.resolve("plan.json");
        assertThat(Run.of("plan", workload().toString(), "-o", plan.toString()).exit()).isZero();
        Path html = dir.resolve("out/plan.html");
        Run r = Run.of("report", plan.toString(), "-o", html.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        // a, b, s and npu-ref's instruction stream
        assertThat(r.out()).isEqualTo("wrote " + html + " (4 reservations)" + System.lineSeparator());
        String s = Files.readString(html, StandardCharsets.UTF_8);
        assertThat(s).startsWith("<!DOCTYPE html>").contains("<svg class=\"chart\" data-space=\"global\"")
                .contains("<svg class=\"chart\" data-space=\"sram\"").doesNotContain("http");
        assertThat(Files.list(html.getParent())).as("no temporary file left").containsExactly(html);
        if (Files.getFileStore(html).supportsFileAttributeView("posix")) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(html))).isEqualTo("rw-r--r--");
        }
        assertThat(Run.of("report", plan.toString(), "-o", html.toString(), "--quiet").out()).isEmpty();
    }

    @Test
    void planWritesTheReportToo() throws IOException {
        Path plan = dir.resolve("plan.json");
        Path html = dir.resolve("plan.html");
        Run r = Run.of("plan", workload().toString(), "-o", plan.toString(), "--report", html.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("wrote " + plan).contains("wrote " + html);
        assertThat(Files.readString(html)).contains("data-space=\"global\"");
        Run json = Run.of("plan", workload().toString(), "--report", html.toString(), "--json");
        assertThat(json.exit()).isZero();
        assertThat(json.out()).startsWith("{").doesNotContain("wrote");
    }

    @Test
    void anOutputThatIsAlsoAnInputIsRefused() throws IOException {
        Path w = workload();
        Path plan = dir.resolve("plan.json");
        assertThat(Run.of("plan", w.toString(), "-o", plan.toString()).exit()).isZero();
        byte[] before = Files.readAllBytes(plan);
        Run same = Run.of("report", plan.toString(), "-o", plan.toString());
        assertThat(same.exit()).isEqualTo(2);
        assertThat(same.err()).contains("invalid-input").contains("is also an input");
        assertThat(Files.readAllBytes(plan)).isEqualTo(before);
        Run viaDots = Run.of("report", plan.toString(), "-o", dir.resolve("x/../plan.json").toString(), "--json");
        assertThat(viaDots.exit()).isEqualTo(2);
        assertThat(viaDots.out()).contains("\"category\": \"invalid-input\"");
        assertThat(Run.of("plan", w.toString(), "--report", w.toString()).exit()).isEqualTo(2);
        assertThat(Run.of("plan", w.toString(), "-o", plan.toString(), "--report", plan.toString()).exit()).isEqualTo(2);
        assertThat(Files.readAllBytes(plan)).isEqualTo(before);
    }

    @Test
    void badReportInputsAreInvalidInput() throws IOException {
        Run noOutput = Run.of("report", "plan.json");
        assertThat(noOutput.exit()).isEqualTo(2);
        assertThat(noOutput.err()).contains("-o");
        Path notAPlan = workload();
        Run wrong = Run.of("report", notAPlan.toString(), "-o", dir.resolve("r.html").toString());
        assertThat(wrong.exit()).isEqualTo(2);
        assertThat(wrong.err()).startsWith("berth: invalid-input: ");
        assertThat(Files.exists(dir.resolve("r.html"))).isFalse();
        Run missing = Run.of("report", dir.resolve("nope.json").toString(), "-o", dir.resolve("r.html").toString());
        assertThat(missing.exit()).isEqualTo(2);
    }

    @Test
    void quietIsAcceptedAndProgressNeverReachesJsonOutput() throws IOException {
        Run r = Run.of("plan", workload().toString(), "--json", "--quiet", "--solver", "exact");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out().strip()).startsWith("{").endsWith("}").doesNotContain("searching");
        assertThat(r.err()).isEmpty();
    }

    @Test
    void versionNamesTheProjectVersion() {
        Run r = Run.of("--version");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).startsWith("berth 0.").contains("Java ").doesNotContain("${").doesNotContain("unknown");
    }

    @Test
    void completionIsABashScriptCoveringTheCommandsAndOptions() {
        Run r = Run.of("completion");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).startsWith("#!/usr/bin/env bash").contains("complete -F")
                .contains("plan").contains("check-deploy").contains("report").contains("--report").contains("--provide")
                .contains("--time-limit");
    }
}
