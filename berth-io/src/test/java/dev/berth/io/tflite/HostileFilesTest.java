package dev.berth.io.tflite;

import dev.berth.TestData;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.io.TargetJson;
import dev.berth.target.Target;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Truncated, corrupted and crafted .tflite files: the only failure is {@code invalid-input}, in
 * bounded time (and, since the verifier runs before anything is allocated by count, bounded
 * memory: the test JVM's default heap).
 */
class HostileFilesTest {
    private static final Target TFLM = TargetJson.load("tflm");

    static Stream<String> models() throws Exception {
        return TflmGroundTruthTest.models();
    }

    /** Imports; returns null on success, else the exception, which must be invalid-input. */
    private static BerthException importOrFailure(byte[] bytes, String file) {
        try {
            TfliteImport.read(ByteBuffer.wrap(bytes), file, TFLM, TfliteImport.Options.of(TflmGroundTruthTest.inputs(file)));
            return null;
        } catch (BerthException e) {
            assertThat(e.category()).as(file + ": " + e.getMessage()).isEqualTo(Category.INVALID_INPUT);
            // the file is named, or (a corrupted input name) the --input that no longer matches
            assertThat(e.getMessage()).containsAnyOf(file, "--input");
            return e;
        }
    }

    @ParameterizedTest
    @MethodSource("models")
    void truncationsAtManyLengthsAreInvalidInput(String file) throws Exception {
        byte[] whole = Files.readAllBytes(TestData.require("models/tflite/" + file));
        assertThat(importOrFailure(whole, file)).isNull();
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            int failures = 0;
            int tried = 0;
            for (int len = 0; len < whole.length; len += len < 256 ? 1 : Math.max(1, whole.length / 300)) {
                tried++;
                if (importOrFailure(Arrays.copyOf(whole, len), file) != null) {
                    failures++;
                }
            }
            // the weights sit at the end, so cutting anywhere breaks a vector or an offset
            assertThat(failures).as(file + ": truncations refused of " + tried).isEqualTo(tried);
            assertThat(importOrFailure(Arrays.copyOf(whole, whole.length - 1), file)).isNotNull();
        });
    }

    @ParameterizedTest
    @MethodSource("models")
    void seededByteFlipsFailOnlyAsInvalidInput(String file) throws Exception {
        byte[] whole = Files.readAllBytes(TestData.require("models/tflite/" + file));
        Random rnd = new Random(0x7f1e + file.hashCode());
        assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
            for (int i = 0; i < 400; i++) {
                byte[] m = whole.clone();
                int flips = 1 + rnd.nextInt(8);
                for (int f = 0; f < flips; f++) {
                    // the tables are near the start and the end of a TFLite file; the weights in between
                    int region = rnd.nextInt(3);
                    int window = Math.min(m.length, 4096);
                    int pos = region == 0 ? rnd.nextInt(m.length) : region == 1 ? rnd.nextInt(window)
                            : m.length - 1 - rnd.nextInt(window);
                    m[pos] ^= (byte) (1 << rnd.nextInt(8));
                }
                importOrFailure(m, file);
            }
        });
    }

    @Test
    void seededFlipsAndTruncationsOfAControlFlowModelFailOnlyAsInvalidInput() {
        byte[] whole = TinyTflite.build(TinyTflite.Graph.of(TinyTflite.Op.whileOf(1, 2), TinyTflite.Op.fc()),
                TinyTflite.Graph.of(TinyTflite.Op.fc()), TinyTflite.Graph.of(TinyTflite.Op.whileOf(1, 1)));
        assertThat(importOrFailure(whole, "cf.tflite")).isNull();
        Random rnd = new Random(20261201);
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            for (int len = 0; len < whole.length; len++) {
                importOrFailure(Arrays.copyOf(whole, len), "cf.tflite");
            }
            for (int i = 0; i < 5000; i++) {
                byte[] m = whole.clone();
                int flips = 1 + rnd.nextInt(4);
                for (int f = 0; f < flips; f++) {
                    if (rnd.nextBoolean()) {
                        m[rnd.nextInt(m.length)] ^= (byte) (1 << rnd.nextInt(8));
                    } else {
                        m[rnd.nextInt(m.length)] = (byte) rnd.nextInt(256);
                    }
                }
                importOrFailure(m, "cf.tflite");
            }
        });
    }

    @Test
    void dataSharedByManyTablesCannotMultiplyTheWork() {
        // 4000 tensors share one 64 KiB name and one shape vector of 16k dimensions: a 130 KB file
        // whose naive reading copies 250 MB of names and visits 64 M dimensions
        com.google.flatbuffers.FlatBufferBuilder b = new com.google.flatbuffers.FlatBufferBuilder(1 << 18);
        int name = b.createString("n".repeat(1 << 16));
        int shape = org.tensorflow.lite.schema.Tensor.createShapeVector(b, new int[1 << 14]);
        int[] tensors = new int[4000];
        for (int i = 0; i < tensors.length; i++) {
            tensors[i] = org.tensorflow.lite.schema.Tensor.createTensor(b, shape, (byte) 9, 0, name, 0, false, 0, 0, false, 0);
        }
        int tv = org.tensorflow.lite.schema.SubGraph.createTensorsVector(b, tensors);
        int g = org.tensorflow.lite.schema.SubGraph.createSubGraph(b, tv, 0, 0, 0, 0);
        int sv = org.tensorflow.lite.schema.Model.createSubgraphsVector(b, new int[] {g});
        org.tensorflow.lite.schema.Buffer.startBuffer(b);
        int empty = org.tensorflow.lite.schema.Buffer.endBuffer(b);
        int bv = org.tensorflow.lite.schema.Model.createBuffersVector(b, new int[] {empty});
        org.tensorflow.lite.schema.Model.finishModelBuffer(b, org.tensorflow.lite.schema.Model.createModel(b, 3, 0, sv, 0, bv,
                0, 0, 0));
        byte[] f = b.sizedByteArray();
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> assertThatThrownBy(() ->
                TfliteImport.read(ByteBuffer.wrap(f), "shared.tflite", TFLM, TfliteImport.Options.of()))
                .isInstanceOfSatisfying(BerthException.class, e -> assertThat(e.category()).isEqualTo(Category.INVALID_INPUT))
                .hasMessageContaining("point many times at the same data"));
    }

    @Test
    void aTinyModelIsValid() {
        byte[] f = TinyTflite.build(TinyTflite.Graph.of(TinyTflite.Op.fc(), TinyTflite.Op.fc()));
        ImportedTflite m = TfliteImport.read(ByteBuffer.wrap(f), "tiny.tflite", TFLM, TfliteImport.Options.of());
        assertThat(m.plannedCount()).isEqualTo(3);
        assertThat(m.view().lastStep()).isEqualTo(2);
    }

    @Test
    void aVectorClaiming2To31ElementsIsInvalidInput() {
        byte[] f = TinyTflite.build(TinyTflite.Graph.of(TinyTflite.Op.fc()));
        int at = TinyTflite.inputsLengthPosition(f, 0);
        ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN).putInt(at, Integer.MIN_VALUE);
        assertThatThrownBy(() -> TfliteImport.read(ByteBuffer.wrap(f), "big.tflite", TFLM, TfliteImport.Options.of()))
                .isInstanceOfSatisfying(BerthException.class, e -> assertThat(e.category()).isEqualTo(Category.INVALID_INPUT))
                .hasMessageContaining("subgraph 0 inputs").hasMessageContaining("claims 2147483648 elements");
        ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN).putInt(at, -1);
        assertThatThrownBy(() -> TfliteImport.read(ByteBuffer.wrap(f), "big.tflite", TFLM, TfliteImport.Options.of()))
                .hasMessageContaining("claims 4294967295 elements");
    }

    @Test
    void anOffsetPastTheEndIsInvalidInput() {
        byte[] f = TinyTflite.build(TinyTflite.Graph.of(TinyTflite.Op.fc()));
        ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN).putInt(0, f.length + 4);
        assertThatThrownBy(() -> TfliteImport.read(ByteBuffer.wrap(f), "past.tflite", TFLM, TfliteImport.Options.of()))
                .isInstanceOfSatisfying(BerthException.class, e -> assertThat(e.category()).isEqualTo(Category.INVALID_INPUT))
                .hasMessageContaining("root table").hasMessageContaining("outside the file");
    }

    @Test
    void notATfliteFileIsInvalidInput() {
        byte[] f = TinyTflite.build(TinyTflite.Graph.of(TinyTflite.Op.fc()));
        f[4] = 'X';
        assertThatThrownBy(() -> TfliteImport.read(ByteBuffer.wrap(f), "x.tflite", TFLM, TfliteImport.Options.of()))
                .hasMessageContaining("file identifier").hasMessageContaining("not \"TFL3\"");
        assertThatThrownBy(() -> TfliteImport.read(ByteBuffer.wrap(new byte[0]), "e.tflite", TFLM, TfliteImport.Options.of()))
                .hasMessageContaining("empty");
    }

    @Test
    void aSubgraphIndexOutOfRangeIsInvalidInput() {
        byte[] f = TinyTflite.build(TinyTflite.Graph.of(TinyTflite.Op.whileOf(1, 7)), TinyTflite.Graph.of(TinyTflite.Op.fc()));
        assertThatThrownBy(() -> TfliteImport.read(ByteBuffer.wrap(f), "w.tflite", TFLM, TfliteImport.Options.of()))
                .isInstanceOfSatisfying(BerthException.class, e -> assertThat(e.category()).isEqualTo(Category.INVALID_INPUT))
                .hasMessageContaining("subgraph 0 operator 0 (WHILE)").hasMessageContaining("runs subgraph 7, which does not exist");
    }

    @Test
    void aSelfRecursiveWhileIsInvalidInput() {
        byte[] self = TinyTflite.build(TinyTflite.Graph.of(TinyTflite.Op.whileOf(0, 0)));
        assertThatThrownBy(() -> TfliteImport.read(ByteBuffer.wrap(self), "r.tflite", TFLM, TfliteImport.Options.of()))
                .isInstanceOfSatisfying(BerthException.class, e -> assertThat(e.category()).isEqualTo(Category.INVALID_INPUT))
                .hasMessageContaining("subgraph 0 runs itself");
        byte[] mutual = TinyTflite.build(TinyTflite.Graph.of(TinyTflite.Op.whileOf(1, 1)),
                TinyTflite.Graph.of(TinyTflite.Op.whileOf(2, 2)), TinyTflite.Graph.of(TinyTflite.Op.whileOf(1, 1)));
        assertThatThrownBy(() -> TfliteImport.read(ByteBuffer.wrap(mutual), "m.tflite", TFLM, TfliteImport.Options.of()))
                .hasMessageContaining("subgraph 1 runs itself: subgraph 1 runs subgraph 2 (WHILE operator 0), "
                        + "subgraph 2 runs subgraph 1 (WHILE operator 0)");
    }

    @Test
    void controlFlowThatExpandsExponentiallyIsRefusedQuickly() {
        // subgraph k runs subgraph k+1 twice (as cond and body): TFLM would walk 2^40 steps
        TinyTflite.Graph[] g = new TinyTflite.Graph[41];
        for (int k = 0; k < 40; k++) {
            g[k] = TinyTflite.Graph.of(TinyTflite.Op.whileOf(k + 1, k + 1));
        }
        g[40] = TinyTflite.Graph.of(TinyTflite.Op.fc());
        byte[] f = TinyTflite.build(g);
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> assertThatThrownBy(() ->
                TfliteImport.read(ByteBuffer.wrap(f), "x.tflite", TFLM, TfliteImport.Options.of()))
                .hasMessageContaining("TFLM's walk").hasMessageContaining("more than Berth plans"));
    }

    @Test
    void controlFlowThatRepeatsWideOperatorsIsRefusedQuickly() {
        // 2^20 walks of a subgraph whose operator reads 4096 inputs: 2^21 steps, 4 x 10^9 tensor uses
        TinyTflite.Graph[] g = new TinyTflite.Graph[21];
        for (int k = 0; k < 20; k++) {
            g[k] = TinyTflite.Graph.of(TinyTflite.Op.whileOf(k + 1, k + 1));
        }
        g[20] = TinyTflite.Graph.of(TinyTflite.Op.fcReading(4096));
        byte[] f = TinyTflite.build(g);
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> assertThatThrownBy(() ->
                TfliteImport.read(ByteBuffer.wrap(f), "wide.tflite", TFLM, TfliteImport.Options.of()))
                .isInstanceOfSatisfying(BerthException.class, e -> assertThat(e.category()).isEqualTo(Category.INVALID_INPUT))
                .hasMessageContaining("TFLM's walk").hasMessageContaining("tensor uses"));
    }

    @Test
    void aTypeCodeTheSchemaDoesNotKnowIsNamedAsTheUnsignedByteOfTheFile() {
        byte[] f = TinyTflite.build(new TinyTflite.Graph(List.of(TinyTflite.Op.fc()), (byte) 200));
        assertThatThrownBy(() -> TfliteImport.read(ByteBuffer.wrap(f), "t.tflite", TFLM, TfliteImport.Options.of()))
                .isInstanceOfSatisfying(BerthException.class, e -> assertThat(e.category()).isEqualTo(Category.INVALID_INPUT))
                .hasMessageContaining("tensor 0 (g0t0) has type code 200 (not a type the schema knows), for which TFLM "
                        + "has no element size");
    }

    @Test
    void aStringTensorIsInvalidInputNamingIt() {
        byte[] f = TinyTflite.build(new TinyTflite.Graph(List.of(TinyTflite.Op.fc()),
                org.tensorflow.lite.schema.TensorType.STRING));
        assertThatThrownBy(() -> TfliteImport.read(ByteBuffer.wrap(f), "s.tflite", TFLM, TfliteImport.Options.of()))
                .isInstanceOfSatisfying(BerthException.class, e -> assertThat(e.category()).isEqualTo(Category.INVALID_INPUT))
                .hasMessageContaining("tensor 0 (g0t0) has type STRING, which has no fixed size");
    }

    @Test
    void whileLifetimesFollowTflmsWalk() {
        // subgraph 0: t0 -WHILE(cond 1, body 2)-> t1; subgraphs 1 and 2: t0 -FC-> t1
        byte[] f = TinyTflite.build(TinyTflite.Graph.of(TinyTflite.Op.whileOf(1, 2)), TinyTflite.Graph.of(TinyTflite.Op.fc()),
                TinyTflite.Graph.of(TinyTflite.Op.fc()));
        ImportedTflite m = TfliteImport.read(ByteBuffer.wrap(f), "w.tflite", TFLM, TfliteImport.Options.of());
        var e = m.view().entries();
        // step 0: inputs; 1: WHILE (t1 created); 2: enter cond; 3: its FC; 4: enter body; 5: its FC; then the
        // WHILE's inputs and outputs are used at 5
        assertThat(e).extracting(TflmView.Entry::label, TflmView.Entry::firstUsed, TflmView.Entry::lastUsed).containsExactly(
                org.assertj.core.groups.Tuple.tuple("t0", 0, 5), org.assertj.core.groups.Tuple.tuple("t1", 1, 5),
                org.assertj.core.groups.Tuple.tuple("s1.t0", 2, 3), org.assertj.core.groups.Tuple.tuple("s1.t1", 3, 3),
                org.assertj.core.groups.Tuple.tuple("s2.t0", 4, 5), org.assertj.core.groups.Tuple.tuple("s2.t1", 5, 5));
        assertThat(m.view().lastStep()).isEqualTo(5);
    }
}
