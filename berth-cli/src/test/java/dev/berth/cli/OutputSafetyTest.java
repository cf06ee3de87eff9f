package dev.berth.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No lost data: every output ({@code plan -o} as an artifact or as CSV, {@code plan --report},
 * {@code report -o}) is written to a temporary file and renamed over the target; an output
 * path that is an input (by name, through {@code ..}, or through a link) is
 * {@code invalid-input} and the input is kept; a run that fails, at any point, leaves every
 * earlier output byte for byte as it was and no temporary file behind.
 */
class OutputSafetyTest {
    private static final String WORKLOAD = """
            { "buffers": [ { "name": "a", "size": "1KiB", "space": "global", "live": [0, 1] },
                           { "name": "b", "size": "2KiB", "space": "global", "live": [1, 2] } ] }
            """;
    private static final String TOO_BIG = """
            { "buffers": [ { "name": "a", "size": "5GiB", "space": "global", "live": [0, 0] } ] }
            """;
    private static final String CSV = "id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\nb3,0,9,4\n";

    @TempDir
    Path dir;

    private Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        return p;
    }

    private void noTemporaryFilesLeft() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
        }
    }

    @Test
    void aSuccessfulRunReplacesTheOutputByRenamingNotByWritingIntoIt() throws IOException {
        Path w = write("w.json", WORKLOAD);
        Path out = write("plan.json", "earlier contents\n");
        Path link = dir.resolve("old-plan.json");
        Files.createLink(link, out);
        Run r = Run.of("plan", w.toString(), "-o", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(Files.readString(out)).contains("\"berth-plan\"");
        // a hard link to the old file still sees the old bytes: the new ones went to a new file, renamed
        assertThat(Files.readString(link)).isEqualTo("earlier contents\n");
        noTemporaryFilesLeft();
    }

    @Test
    void anOutputThatIsAnInputUnderAnotherNameIsRefused() throws IOException {
        Path w = write("w.json", WORKLOAD);
        Path hard = dir.resolve("hard.json");
        Files.createLink(hard, w);
        Path sym = dir.resolve("sym.json");
        Files.createSymbolicLink(sym, w);
        Path target = write("t.json", Files.readString(Path.of("../berth-io/src/main/resources/dev/berth/targets/npu-ref.json")));
        for (String[] args : new String[][]{
                {"plan", w.toString(), "-o", hard.toString()},
                {"plan", w.toString(), "-o", sym.toString()},
                {"plan", w.toString(), "-o", dir.resolve("sub/../w.json").toString()},
                {"plan", w.toString(), "--target", target.toString(), "-o", target.toString()},
                {"plan", w.toString(), "--target", target.toString(), "--report", target.toString()}}) {
            Run r = Run.of(args);
            assertThat(r.exit()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(r.err()).contains("invalid-input").contains("also an input");
        }
        assertThat(Files.readString(w)).isEqualTo(WORKLOAD);
        assertThat(Files.isSymbolicLink(sym)).isTrue();
        assertThat(Files.readString(target)).contains("npu-ref");
    }

    @Test
    void aCsvOutputEqualToItsInputIsRefusedAndAFailedCsvRunKeepsTheEarlierOutput() throws IOException {
        Path in = write("in.csv", CSV);
        Run same = Run.of("plan", in.toString(), "--capacity", "12", "-o", in.toString());
        assertThat(same.exit()).isEqualTo(2);
        assertThat(same.err()).contains("also an input");
        assertThat(Files.readString(in)).isEqualTo(CSV);
        Path out = dir.resolve("out.csv");
        assertThat(Run.of("plan", in.toString(), "--capacity", "12", "-o", out.toString()).exit()).isZero();
        byte[] good = Files.readAllBytes(out);
        Run tooSmall = Run.of("plan", in.toString(), "--capacity", "7", "-o", out.toString());
        assertThat(tooSmall.exit()).as(tooSmall.err()).isEqualTo(5);
        Path broken = write("broken.csv", "id,lower,upper,size\nb1,0,3,-4\n");
        assertThat(Run.of("plan", broken.toString(), "--capacity", "12", "-o", out.toString()).exit()).isEqualTo(2);
        assertThat(Files.readAllBytes(out)).isEqualTo(good);
        noTemporaryFilesLeft();
    }

    @Test
    void aFailedPlanKeepsBothTheEarlierArtifactAndTheEarlierReport() throws IOException {
        Path w = write("w.json", WORKLOAD);
        Path plan = dir.resolve("plan.json");
        Path html = dir.resolve("plan.html");
        assertThat(Run.of("plan", w.toString(), "-o", plan.toString(), "--report", html.toString()).exit()).isZero();
        byte[] goodPlan = Files.readAllBytes(plan);
        byte[] goodHtml = Files.readAllBytes(html);
        Path bad = write("bad.json", TOO_BIG);
        assertThat(Run.of("plan", bad.toString(), "-o", plan.toString(), "--report", html.toString()).exit())
                .isEqualTo(3);
        Path garbled = write("garbled.json", "{ \"buffers\": [ ");
        assertThat(Run.of("plan", garbled.toString(), "-o", plan.toString(), "--report", html.toString()).exit())
                .isEqualTo(2);
        assertThat(Files.readAllBytes(plan)).isEqualTo(goodPlan);
        assertThat(Files.readAllBytes(html)).isEqualTo(goodHtml);
        noTemporaryFilesLeft();
    }

    @Test
    void aReportThatCannotBeWrittenLeavesTheArtifactUntouchedToo() throws IOException {
        Path w = write("w.json", WORKLOAD);
        Path plan = write("plan.json", "earlier plan\n");
        Path notADirectory = write("file", "a file where a directory is needed\n");
        Run r = Run.of("plan", w.toString(), "-o", plan.toString(), "--report", notADirectory.resolve("r.html").toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("invalid-input", "cannot write", notADirectory + " exists and is not a directory")
                .doesNotContain("Exception");
        assertThat(Files.readString(plan)).isEqualTo("earlier plan\n");
        noTemporaryFilesLeft();
    }

    @Test
    void aSymbolicLinkIsWrittenThroughAndStaysALink() throws IOException {
        Path w = write("w.json", WORKLOAD);
        Path real = write("real/plan.json", "earlier contents\n");
        Path link = Files.createSymbolicLink(dir.resolve("plan.json"), real);
        Run r = Run.of("plan", w.toString(), "-o", link.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(Files.readString(real)).contains("\"berth-plan\"");
        noTemporaryFilesLeft();
    }

    @Test
    void aDanglingSymbolicLinkIsFollowedAndStaysALink() throws IOException {
        Path w = write("w.json", WORKLOAD);
        Files.createDirectories(dir.resolve("later"));
        Path link = Files.createSymbolicLink(dir.resolve("plan.json"), Path.of("later", "plan.json"));
        Run r = Run.of("plan", w.toString(), "-o", link.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(Files.readString(dir.resolve("later/plan.json"))).contains("\"berth-plan\"");
        noTemporaryFilesLeft();
    }

    @Test
    void aFifoIsWrittenIntoNotReplacedByAFile() throws Exception {
        Path w = write("w.json", WORKLOAD);
        Path regular = dir.resolve("regular.json");
        assertThat(Run.of("plan", w.toString(), "-o", regular.toString()).exit()).isZero();
        Path fifo = dir.resolve("fifo.json");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertThat(mkfifo.waitFor()).isZero();
        // a reader on the other end, as a shell's process substitution would have
        CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> {
            try {
                return Files.readAllBytes(fifo);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        Run r = Run.of("plan", w.toString(), "-o", fifo.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(read.get(60, TimeUnit.SECONDS)).isEqualTo(Files.readAllBytes(regular));
        assertThat(Files.isRegularFile(fifo)).as("still a FIFO").isFalse();
        assertThat(Files.exists(fifo)).isTrue();
        noTemporaryFilesLeft();
    }

    @Test
    void anOutputThatIsADirectoryIsRefusedAndTheDirectoryKept() throws IOException {
        Path w = write("w.json", WORKLOAD);
        Path empty = Files.createDirectory(dir.resolve("empty"));
        Run r = Run.of("plan", w.toString(), "-o", empty.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("invalid-input").contains("directory");
        assertThat(Files.isDirectory(empty)).isTrue();
        noTemporaryFilesLeft();
    }

    @Test
    void aFailedReportKeepsTheEarlierReport() throws IOException {
        Path w = write("w.json", WORKLOAD);
        Path plan = dir.resolve("plan.json");
        Path html = dir.resolve("plan.html");
        assertThat(Run.of("plan", w.toString(), "-o", plan.toString()).exit()).isZero();
        assertThat(Run.of("report", plan.toString(), "-o", html.toString()).exit()).isZero();
        byte[] good = Files.readAllBytes(html);
        Path tampered = write("tampered.json", Files.readString(plan).replaceFirst("\"highWater\": \\d+", "\"highWater\": 1"));
        assertThat(Files.readString(tampered)).isNotEqualTo(Files.readString(plan));
        Run r = Run.of("report", tampered.toString(), "-o", html.toString());
        assertThat(r.exit()).isEqualTo(2);
        Run missing = Run.of("report", dir.resolve("nope.json").toString(), "-o", html.toString());
        assertThat(missing.exit()).isEqualTo(2);
        Run same = Run.of("report", html.toString(), "-o", html.toString());
        assertThat(same.exit()).isEqualTo(2);
        assertThat(Files.readAllBytes(html)).isEqualTo(good);
        noTemporaryFilesLeft();
    }

    @Test
    void anOnnxModelIsAnInputToo() throws IOException {
        Path model = dir.resolve("chain.onnx");
        Files.copy(Path.of("../berth-io/src/test/resources/dev/berth/io/fuzz/OnnxImportFuzzTestInputs/onnxFile/chain.onnx"),
                model);
        byte[] before = Files.readAllBytes(model);
        Run r = Run.of("plan", model.toString(), "-o", model.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("also an input");
        assertThat(Files.readAllBytes(model)).isEqualTo(before);
        Path plan = dir.resolve("plan.json");
        Run ok = Run.of("plan", model.toString(), "-o", plan.toString());
        assertThat(ok.exit()).as(ok.err()).isZero();
    }

    @Test
    void aDemoThatCannotWriteItsReportLeavesTheEarlierPlanAsItWas() throws IOException {
        Path out = dir.resolve("demo");
        Path plan = write("demo/plan.json", "earlier plan\n");
        Files.createDirectories(out.resolve("plan.html").resolve("in-the-way"));
        Run r = Run.of("demo", "--dir", out.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("invalid-input").contains("plan.html");
        assertThat(Files.readString(plan)).isEqualTo("earlier plan\n");
        Path aFile = write("not-a-dir", "x\n");
        Run intoAFile = Run.of("demo", "--dir", aFile.toString());
        assertThat(intoAFile.exit()).isEqualTo(2);
        assertThat(Files.readString(aFile)).isEqualTo("x\n");
        noTemporaryFilesLeft();
    }
}
