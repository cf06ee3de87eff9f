package dev.berth.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code berth report}, {@code plan --report}, {@code --quiet}, {@code --version} and {@code completion}, end to end. */
class CliReportTest {
    @TempDir
    Path dir;

    record Run(int code, String out, String err) {
    }

    static Run berth(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString());
    }

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
        assertThat(berth("plan", workload().toString(), "-o", plan.toString()).code()).isZero();
        Path html = dir.resolve("out/plan.html");
        Run r = berth("report", plan.toString(), "-o", html.toString());
        assertThat(r.code()).as(r.err()).isZero();
        // a, b, s and npu-ref's instruction stream
        assertThat(r.out()).isEqualTo("wrote " + html + " (4 reservations)" + System.lineSeparator());
        String s = Files.readString(html, StandardCharsets.UTF_8);
        assertThat(s).startsWith("<!DOCTYPE html>").contains("<svg class=\"chart\" data-space=\"global\"")
                .contains("<svg class=\"chart\" data-space=\"sram\"").doesNotContain("http");
        assertThat(Files.list(html.getParent())).as("no temporary file left").containsExactly(html);
        if (Files.getFileStore(html).supportsFileAttributeView("posix")) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(html))).isEqualTo("rw-r--r--");
        }
        assertThat(berth("report", plan.toString(), "-o", html.toString(), "--quiet").out()).isEmpty();
    }

    @Test
    void planWritesTheReportToo() throws IOException {
        Path plan = dir.resolve("plan.json");
        Path html = dir.resolve("plan.html");
        Run r = berth("plan", workload().toString(), "-o", plan.toString(), "--report", html.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("wrote " + plan).contains("wrote " + html);
        assertThat(Files.readString(html)).contains("data-space=\"global\"");
        Run json = berth("plan", workload().toString(), "--report", html.toString(), "--json");
        assertThat(json.code()).isZero();
        assertThat(json.out()).startsWith("{").doesNotContain("wrote");
    }

    @Test
    void anOutputThatIsAlsoAnInputIsRefused() throws IOException {
        Path w = workload();
        Path plan = dir.resolve("plan.json");
        assertThat(berth("plan", w.toString(), "-o", plan.toString()).code()).isZero();
        byte[] before = Files.readAllBytes(plan);
        Run same = berth("report", plan.toString(), "-o", plan.toString());
        assertThat(same.code()).isEqualTo(2);
        assertThat(same.err()).contains("invalid-input").contains("is also an input");
        assertThat(Files.readAllBytes(plan)).isEqualTo(before);
        Run viaDots = berth("report", plan.toString(), "-o", dir.resolve("x/../plan.json").toString(), "--json");
        assertThat(viaDots.code()).isEqualTo(2);
        assertThat(viaDots.out()).contains("\"category\": \"invalid-input\"");
        assertThat(berth("plan", w.toString(), "--report", w.toString()).code()).isEqualTo(2);
        assertThat(berth("plan", w.toString(), "-o", plan.toString(), "--report", plan.toString()).code()).isEqualTo(2);
        assertThat(Files.readAllBytes(plan)).isEqualTo(before);
    }

    @Test
    void badReportInputsAreInvalidInput() throws IOException {
        Run noOutput = berth("report", "plan.json");
        assertThat(noOutput.code()).isEqualTo(2);
        assertThat(noOutput.err()).contains("-o");
        Path notAPlan = workload();
        Run wrong = berth("report", notAPlan.toString(), "-o", dir.resolve("r.html").toString());
        assertThat(wrong.code()).isEqualTo(2);
        assertThat(wrong.err()).startsWith("berth: invalid-input: ");
        assertThat(Files.exists(dir.resolve("r.html"))).isFalse();
        Run missing = berth("report", dir.resolve("nope.json").toString(), "-o", dir.resolve("r.html").toString());
        assertThat(missing.code()).isEqualTo(2);
    }

    @Test
    void quietIsAcceptedAndProgressNeverReachesJsonOutput() throws IOException {
        Run r = berth("plan", workload().toString(), "--json", "--quiet", "--solver", "exact");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out().strip()).startsWith("{").endsWith("}").doesNotContain("searching");
        assertThat(r.err()).isEmpty();
    }

    @Test
    void versionNamesTheProjectVersion() {
        Run r = berth("--version");
        assertThat(r.code()).isZero();
        assertThat(r.out()).startsWith("berth 0.").contains("Java ").doesNotContain("${").doesNotContain("unknown");
    }

    @Test
    void completionIsABashScriptCoveringTheCommandsAndOptions() {
        Run r = berth("completion");
        assertThat(r.code()).isZero();
        assertThat(r.out()).startsWith("#!/usr/bin/env bash").contains("complete -F")
                .contains("plan").contains("check-deploy").contains("report").contains("--report").contains("--provide")
                .contains("--time-limit");
    }
}
