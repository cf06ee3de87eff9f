package dev.berth.io;

import dev.berth.TestData;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.failure.Failure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What a file is, told by its content; the extension a hint (contract §7, "What a file is"). */
class InputKindTest {
    @TempDir
    Path dir;

    private Path copy(String relative, String name) throws IOException {
        Path to = dir.resolve(name);
        Files.copy(TestData.root().resolve(relative), to);
        return to;
    }

    private Path write(String name, byte[] bytes) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, bytes);
        return p;
    }

    private Path write(String name, String text) throws IOException {
        return write(name, text.getBytes(StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @CsvSource({
            "examples/seed.json, WORKLOAD",
            "examples/fastslow.json, WORKLOAD",
            "testdata/models/ch_ppocr_mobile_v2.0_cls_infer.onnx, ONNX",
            "testdata/models/silero_vad_legacy.onnx, ONNX",
            "testdata/models/hello_deepa.onnx, ONNX",
            "testdata/models/ch_PP-OCRv4_det_infer.onnx, ONNX",
            "testdata/models/tflite/person_detect.tflite, TFLITE",
            "testdata/models/tflite/hello_world_int8.tflite, TFLITE",
            "testdata/models/tflite/person_detect_vela.tflite, TFLITE",
            "testdata/benchmarks/minimalloc/A.1048576.csv, MINIMALLOC_CSV",
            "testdata/benchmarks/idealloc/iopddl/G_1.csv, MINIMALLOC_CSV"})
    void everyKindOfTheRepositoryIsToldByItsContentUnderAnyName(String relative, InputKind kind) throws IOException {
        Path original = TestData.root().resolve(relative);
        assertThat(InputKind.byContent(original)).contains(kind);
        assertThat(InputKind.byName(original)).contains(kind);
        assertThat(InputKind.of(original)).isEqualTo(kind);
        for (String name : new String[]{"model.bin", "noextension", "data.txt"}) {
            Path renamed = copy(relative, name);
            assertThat(InputKind.byName(renamed)).isEmpty();
            assertThat(InputKind.of(renamed)).as(name).isEqualTo(kind);
            Files.delete(renamed);
        }
    }

    @Test
    void theExtensionIsReadWhateverItsCase() {
        assertThat(InputKind.byName(Path.of("M.ONNX"))).contains(InputKind.ONNX);
        assertThat(InputKind.byName(Path.of("a/b.TFLite"))).contains(InputKind.TFLITE);
        assertThat(InputKind.byName(Path.of("x.Csv"))).contains(InputKind.MINIMALLOC_CSV);
        assertThat(InputKind.byName(Path.of("x.json.bak"))).isEmpty();
    }

    private static Failure.InvalidInput invalid(Path file) {
        BerthException e = org.junit.jupiter.api.Assertions.assertThrows(BerthException.class, () -> InputKind.of(file));
        assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
        assertThat(e.failure()).isInstanceOf(Failure.InvalidInput.class);
        Failure.InvalidInput in = (Failure.InvalidInput) e.failure();
        assertThat(in.path()).contains(file.toString());
        return in;
    }

    @Test
    void aJsonFileNamedOnnxIsRefusedNamingBoth() throws IOException {
        Path p = copy("examples/seed.json", "seed.onnx");
        assertThat(invalid(p).message()).isEqualTo(p + ": the name says an ONNX model (.onnx) but the content is a "
                + "Berth workload (JSON: '{' or '[' first); Berth does not guess which is meant: give the file a name "
                + "that ends in .json to read it as a Berth workload");
    }

    @ParameterizedTest
    @CsvSource({
            "testdata/models/hello_deepa.onnx, hello.tflite, 'a TensorFlow Lite model (.tflite)', 'an ONNX model'",
            "testdata/models/tflite/hello_world_int8.tflite, hello.onnx, 'an ONNX model (.onnx)', 'a TensorFlow Lite model'",
            "testdata/models/tflite/hello_world_int8.tflite, hello.json, 'a Berth workload (.json)', 'a TensorFlow Lite model'",
            "testdata/benchmarks/minimalloc/A.1048576.csv, A.json, 'a Berth workload (.json)', 'a MiniMalloc CSV'",
            "examples/seed.json, seed.csv, 'a MiniMalloc CSV (.csv)', 'a Berth workload'"})
    void everyOtherDisagreementIsRefusedToo(String relative, String name, String says, String is) throws IOException {
        Path p = copy(relative, name);
        assertThat(invalid(p).message()).contains("the name says " + says, "the content is " + is);
    }

    @Test
    void aFileOfNoKindWithNoKnownNameIsRefusedListingTheKinds() throws IOException {
        Path p = write("notes.bin", "hello, this is not a model\n");
        assertThat(invalid(p).message()).isEqualTo(p + ": Berth cannot tell what this file is: its content is none "
                + "of a Berth workload (JSON: '{' or '[' first), an ONNX model (protobuf: its fields are those of an "
                + "ONNX ModelProto), a TensorFlow Lite model (FlatBuffers: 'TFL3' at byte 4) or a MiniMalloc CSV (its "
                + "first line is a header such as id,lower,upper,size), and its name ends in none of .json, .onnx, "
                + ".tflite, .csv");
        assertThat(invalid(write("empty", new byte[0])).message()).contains("cannot tell what this file is");
    }

    @ParameterizedTest
    @ValueSource(strings = {"broken.json", "broken.onnx", "broken.tflite", "broken.csv"})
    void unrecognisedContentGoesToTheReaderTheNameNames(String name) throws IOException {
        // the reader of that kind then says what is wrong with the file, as before content was read
        Path p = write(name, new byte[]{1, 2, 3, 4, 5, 6, 7, 8, 9});
        assertThat(InputKind.byContent(p)).isEmpty();
        assertThat(InputKind.of(p)).isEqualTo(InputKind.byName(p).orElseThrow());
        assertThat(InputKind.of(write("empty" + name, new byte[0]))).isEqualTo(InputKind.byName(p).orElseThrow());
    }

    @Test
    void aMissingFileOrADirectoryGoesToItsReaderWhichSaysWhy() throws IOException {
        assertThat(InputKind.of(dir.resolve("missing.onnx"))).isEqualTo(InputKind.ONNX);
        assertThat(InputKind.of(dir.resolve("missing"))).isEqualTo(InputKind.WORKLOAD);
        Path sub = Files.createDirectory(dir.resolve("sub.tflite"));
        assertThat(InputKind.byContent(sub)).isEmpty();
        assertThat(InputKind.of(sub)).isEqualTo(InputKind.TFLITE);
    }

    @Test
    void textKindsAllowAByteOrderMarkAndLeadingWhiteSpace() {
        assertThat(InputKind.byPrefix(ByteBuffer.wrap("\uFEFF \n\t{\"workload\": 1}".getBytes(StandardCharsets.UTF_8))))
                .contains(InputKind.WORKLOAD);
        assertThat(InputKind.byPrefix(ByteBuffer.wrap("\uFEFFbuffer, begin ,end,size\r\nb,0,1,2\n".getBytes(
                StandardCharsets.UTF_8)))).contains(InputKind.MINIMALLOC_CSV);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "id,lower,upper,size|true",
            "id,lower,end,size,alignment,offset,hint,gaps|true",
            "buffer_id,start,upper,size|true",
            "size,upper,lower,id|true",
            "id,lower,upper|false",
            "id,lower,upper,end,size|false",
            "id,lower,upper,size,size|false",
            "id,lower,upper,size,colour|false",
            "id;lower;upper;size|false",
            "hello|false"})
    void aMiniMallocHeaderIsKnownColumnsEachOnceWithTheRequiredOnes(String line, boolean header) {
        assertThat(MiniMallocCsv.isHeader(line)).isEqualTo(header);
    }

    @Test
    void aProtobufIsOnnxOnlyWhenItsFieldsAreWellFormedToTheLastByteAndTheFirstIsModelProtos() {
        // ir_version 8, producer_name "x", graph of 2 bytes
        byte[] model = {0x08, 0x08, 0x12, 0x01, 'x', 0x3a, 0x02, 0x0a, 0x00};
        assertThat(InputKind.isModelProto(ByteBuffer.wrap(model))).isTrue();
        // a length past the end, one byte missing, one byte too many
        assertThat(InputKind.isModelProto(ByteBuffer.wrap(new byte[]{0x08, 0x08, 0x3a, 0x05, 0x0a}))).isFalse();
        assertThat(InputKind.isModelProto(ByteBuffer.wrap(Arrays.copyOf(model, model.length - 1)))).isFalse();
        assertThat(InputKind.isModelProto(ByteBuffer.wrap(Arrays.copyOf(model, model.length + 1)))).isFalse();
        // a first field ModelProto does not have (number 9), or with another wire type (ir_version as bytes)
        assertThat(InputKind.isModelProto(ByteBuffer.wrap(new byte[]{0x48, 0x01}))).isFalse();
        assertThat(InputKind.isModelProto(ByteBuffer.wrap(new byte[]{0x0a, 0x00}))).isFalse();
        // groups (wire types 3, 4) and field number 0 are not ONNX
        assertThat(InputKind.isModelProto(ByteBuffer.wrap(new byte[]{0x08, 0x01, 0x0b}))).isFalse();
        assertThat(InputKind.isModelProto(ByteBuffer.wrap(new byte[]{0x08, 0x01, 0x00}))).isFalse();
        // a varint that never ends
        byte[] endless = new byte[12];
        Arrays.fill(endless, (byte) 0xff);
        endless[0] = 0x08;
        assertThat(InputKind.isModelProto(ByteBuffer.wrap(endless))).isFalse();
    }

    /**
     * Seeded: every model of the repository cut at random lengths is never taken for another kind,
     * and reading it never throws; an ONNX model cut in its second half (inside its graph, which is
     * most of the file) is not taken for ONNX, so its reader, picked by the name, says it is truncated.
     */
    @ParameterizedTest
    @ValueSource(strings = {"testdata/models/hello_deepa.onnx", "testdata/models/silero_vad_legacy.onnx",
            "testdata/models/tflite/hello_world_int8.tflite", "testdata/models/tflite/keyword_scrambled_8bit.tflite",
            "examples/seed.json", "testdata/benchmarks/idealloc/iopddl/G_1.csv"})
    void truncatedFilesAreNeverAnotherKind(String relative) throws IOException {
        byte[] all = Files.readAllBytes(TestData.root().resolve(relative));
        InputKind kind = InputKind.byName(Path.of(relative)).orElseThrow();
        Random random = new Random(27L ^ relative.hashCode());
        for (int i = 0; i < 40; i++) {
            int length = random.nextInt(all.length);
            Path cut = write("cut" + i, Arrays.copyOf(all, length));
            Optional<InputKind> seen = InputKind.byContent(cut);
            assertThat(seen).as("%s cut to %d bytes", relative, length).satisfiesAnyOf(
                    s -> assertThat(s).isEmpty(), s -> assertThat(s).contains(kind));
            if (kind == InputKind.ONNX && length > all.length / 2) {
                assertThat(seen).as("%s cut to %d bytes", relative, length).isEmpty();
            }
            if (kind == InputKind.TFLITE && length >= 8) {
                assertThat(seen).contains(InputKind.TFLITE);
            }
        }
    }
}
