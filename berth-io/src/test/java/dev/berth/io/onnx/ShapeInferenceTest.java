package dev.berth.io.onnx;

import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.io.onnx.proto.Onnx.AttributeProto;
import org.assertj.core.api.ThrowableAssert;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.berth.io.onnx.ElementType.BOOL;
import static dev.berth.io.onnx.ElementType.FLOAT;
import static dev.berth.io.onnx.ElementType.INT64;
import static dev.berth.io.onnx.TestModel.attr;
import static dev.berth.io.onnx.TestModel.attrs;
import static dev.berth.io.onnx.TestModel.in;
import static dev.berth.io.onnx.TestModel.out;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Shape inference per op, on one-node models built in the test. */
class ShapeInferenceTest {

    /** A model of opset {@code opset} with float input x of {@code dims}. */
    private static TestModel x(int opset, Object... dims) {
        return TestModel.opset(opset).input("x", FLOAT, dims);
    }

    private static TensorRecord t(TestModel m, String name, String... inputs) {
        TensorRecord r = TestModel.byName(m.load(inputs)).get(name);
        assertThat(r).as("tensor " + name).isNotNull();
        return r;
    }

    private static long[] shape(TestModel m, String name, String... inputs) {
        return t(m, name, inputs).shape().dims();
    }

    private static void invalid(ThrowableAssert.ThrowingCallable call, String... fragments) {
        assertThatThrownBy(call).isInstanceOfSatisfying(BerthException.class, e -> {
            assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
            assertThat(e.getMessage()).contains(fragments);
        });
    }

    @Nested
    class Convolution {
        @Test
        void padsAndStrides() {
            TestModel m = x(13, 1, 3, 32, 32).weight("w", 8, 3, 3, 3).node("Conv", in("x", "w"), out("y"),
                    attrs("pads", 1, 1, 1, 1), attrs("strides", 2, 2));
            assertThat(shape(m, "y")).containsExactly(1, 8, 16, 16);
        }

        @Test
        void dilationWidensTheKernel() {
            TestModel m = x(13, 1, 3, 32, 32).weight("w", 4, 3, 3, 3).node("Conv", in("x", "w"), out("y"),
                    attrs("dilations", 2, 2));
            assertThat(shape(m, "y")).containsExactly(1, 4, 28, 28);
        }

        @Test
        void depthwiseGroups() {
            TestModel m = x(13, 1, 8, 10, 10).weight("w", 8, 1, 3, 3).node("Conv", in("x", "w"), out("y"), attr("group", 8L));
            assertThat(shape(m, "y")).containsExactly(1, 8, 8, 8);
        }

        @Test
        void sameUpperRoundsUp() {
            TestModel m = x(13, 1, 3, 15, 16).weight("w", 2, 3, 3, 3).node("Conv", in("x", "w"), out("y"),
                    attr("auto_pad", "SAME_UPPER"), attrs("strides", 2, 2));
            assertThat(shape(m, "y")).containsExactly(1, 2, 8, 8);
        }

        @Test
        void oneDimensional() {
            TestModel m = x(13, 1, 4, 100).weight("w", 16, 4, 5).node("Conv", in("x", "w"), out("y"), attrs("strides", 3));
            assertThat(shape(m, "y")).containsExactly(1, 16, 32);
        }

        @Test
        void channelMismatchNamesTheNode() {
            TestModel m = x(13, 1, 3, 8, 8).weight("w", 4, 2, 3, 3).node("Conv", "conv_bad", in("x", "w"), out("y"));
            invalid(m::load, "conv_bad", "(Conv)", "3 channels");
        }

        @Test
        void transposedUpsamples() {
            TestModel m = x(11, 1, 8, 16, 16).weight("w", 8, 4, 2, 2).node("ConvTranspose", in("x", "w"), out("y"),
                    attrs("strides", 2, 2));
            assertThat(shape(m, "y")).containsExactly(1, 4, 32, 32);
        }

        @Test
        void transposedWithPadsOutputPaddingAndGroups() {
            TestModel m = x(11, 1, 8, 16, 16).weight("w", 8, 2, 4, 4).node("ConvTranspose", in("x", "w"), out("y"),
                    attrs("strides", 2, 2), attrs("pads", 1, 1, 1, 1), attrs("output_padding", 1, 0), attr("group", 2L));
            assertThat(shape(m, "y")).containsExactly(1, 4, 33, 32);
        }

        @Test
        void transposedWithOutputShape() {
            TestModel m = x(11, 1, 8, 16, 16).weight("w", 8, 4, 3, 3).node("ConvTranspose", in("x", "w"), out("y"),
                    attrs("strides", 2, 2), attrs("output_shape", 31, 33));
            assertThat(shape(m, "y")).containsExactly(1, 4, 31, 33);
        }
    }

    @Nested
    class Pooling {
        @Test
        void maxPoolWithPads() {
            TestModel m = x(11, 1, 3, 32, 32).node("MaxPool", in("x"), out("y"), attrs("kernel_shape", 3, 3),
                    attrs("strides", 2, 2), attrs("pads", 1, 1, 1, 1));
            assertThat(shape(m, "y")).containsExactly(1, 3, 16, 16);
        }

        @Test
        void ceilModeKeepsThePartialWindow() {
            TestModel floor = x(11, 1, 3, 31, 31).node("MaxPool", in("x"), out("y"), attrs("kernel_shape", 2, 2),
                    attrs("strides", 2, 2));
            TestModel ceil = x(11, 1, 3, 31, 31).node("MaxPool", in("x"), out("y"), attrs("kernel_shape", 2, 2),
                    attrs("strides", 2, 2), attr("ceil_mode", 1L));
            assertThat(shape(floor, "y")).containsExactly(1, 3, 15, 15);
            assertThat(shape(ceil, "y")).containsExactly(1, 3, 16, 16);
        }

        @Test
        void averagePoolDefaultsToStrideOne() {
            TestModel m = x(11, 2, 3, 32, 32).node("AveragePool", in("x"), out("y"), attrs("kernel_shape", 2, 2));
            assertThat(shape(m, "y")).containsExactly(2, 3, 31, 31);
        }

        @Test
        void globalAveragePoolKeepsBatchAndChannels() {
            TestModel m = x(11, 2, 5, 7, 9).node("GlobalAveragePool", in("x"), out("y"));
            assertThat(shape(m, "y")).containsExactly(2, 5, 1, 1);
        }

        @Test
        void poolWithoutKernelIsInvalid() {
            TestModel m = x(11, 1, 3, 8, 8).node("MaxPool", "pool0", in("x"), out("y"));
            invalid(m::load, "pool0", "kernel_shape");
        }
    }

    @Nested
    class Resizing {
        @Test
        void scalesOpset11() {
            TestModel m = x(11, 1, 3, 20, 30).floats("roi").floats("scales", 1, 1, 2, 2.5f)
                    .node("Resize", in("x", "roi", "scales"), out("y"), attr("mode", "nearest"));
            assertThat(shape(m, "y")).containsExactly(1, 3, 40, 75);
        }

        @Test
        void sizesWinOverEmptyScales() {
            TestModel m = x(11, 1, 3, 20, 30).floats("roi").floats("scales").ints("sizes", 1, 3, 7, 9)
                    .node("Resize", in("x", "roi", "scales", "sizes"), out("y"));
            assertThat(shape(m, "y")).containsExactly(1, 3, 7, 9);
        }

        @Test
        void opset13LeavesRoiOut() {
            TestModel m = x(13, 1, 3, 20, 30).floats("scales", 1, 1, 0.5f, 0.5f)
                    .node("Resize", in("x", "", "scales"), out("y"));
            assertThat(shape(m, "y")).containsExactly(1, 3, 10, 15);
        }

        @Test
        void unknownScalesAreInvalid() {
            TestModel m = x(13, 1, 3, 20, 30).input("s", FLOAT, 4).node("Resize", "up", in("x", "", "s"), out("y"));
            invalid(m::load, "up", "(Resize)", "values of input 2 's'");
        }
    }

    @Nested
    class Matrices {
        @Test
        void gemmTransposes() {
            TestModel m = x(13, 4, 8).weight("b", 5, 4).node("Gemm", in("x", "b"), out("y"), attr("transA", 1L),
                    attr("transB", 1L));
            assertThat(shape(m, "y")).containsExactly(8, 5);
        }

        @Test
        void gemmInnerMismatch() {
            TestModel m = x(13, 4, 8).weight("b", 5, 4).node("Gemm", "fc", in("x", "b"), out("y"));
            invalid(m::load, "fc", "(Gemm)", "inner dimensions differ");
        }

        @Test
        void matMulBroadcastsBatches() {
            TestModel m = x(13, 2, 1, 3, 4).weight("b", 7, 4, 6).node("MatMul", in("x", "b"), out("y"));
            assertThat(shape(m, "y")).containsExactly(2, 7, 3, 6);
        }

        @Test
        void matMulVectors() {
            TestModel left = x(13, 4).weight("b", 4, 5).node("MatMul", in("x", "b"), out("y"));
            TestModel right = x(13, 3, 4).weight("b", 4).node("MatMul", in("x", "b"), out("y"));
            TestModel dot = x(13, 4).weight("b", 4).node("MatMul", in("x", "b"), out("y"));
            assertThat(shape(left, "y")).containsExactly(5);
            assertThat(shape(right, "y")).containsExactly(3);
            assertThat(shape(dot, "y")).isEmpty();
        }
    }

    @Nested
    class Elementwise {
        @Test
        void broadcastingAlignsFromTheRight() {
            TestModel m = x(13, 2, 1, 4).input("b", FLOAT, 3, 1).node("Add", in("x", "b"), out("y"));
            assertThat(shape(m, "y")).containsExactly(2, 3, 4);
        }

        @Test
        void scalarBroadcasts() {
            TestModel m = x(13, 5).input("b", FLOAT).node("Mul", in("x", "b"), out("y"));
            assertThat(shape(m, "y")).containsExactly(5);
        }

        @Test
        void incompatibleShapesNameBoth() {
            TestModel m = x(13, 2, 3).input("b", FLOAT, 4).node("Sub", "sub0", in("x", "b"), out("y"));
            invalid(m::load, "sub0", "[2, 3], [4]", "cannot be broadcast");
        }

        @Test
        void comparisonsGiveBool() {
            TestModel m = x(13, 2, 3).input("b", FLOAT, 3).node("Equal", in("x", "b"), out("y"));
            TensorRecord y = t(m, "y");
            assertThat(y.type()).isEqualTo(BOOL);
            assertThat(y.bytes()).isEqualTo(6);
        }

        @Test
        void unaryOpsKeepShapeAndType() {
            for (String op : List.of("Relu", "Sigmoid", "HardSigmoid", "Sqrt", "Log", "Neg", "Softmax", "Identity", "Clip")) {
                TestModel m = x(13, 2, 3, 5).node(op, in("x"), out("y"));
                TensorRecord y = t(m, "y");
                assertThat(y.shape().dims()).as(op).containsExactly(2, 3, 5);
                assertThat(y.bytes()).as(op).isEqualTo(120);
            }
        }

        @Test
        void powAndBatchNormalization() {
            TestModel m = x(13, 1, 4, 6, 6).floats("e", 2).weight("s", 4).weight("b", 4).weight("mu", 4).weight("var", 4)
                    .node("Pow", in("x", "e"), out("p"))
                    .node("BatchNormalization", in("p", "s", "b", "mu", "var"), out("y"));
            assertThat(shape(m, "p")).containsExactly(1, 4, 6, 6);
            assertThat(shape(m, "y")).containsExactly(1, 4, 6, 6);
        }

        @Test
        void castChangesTheByteSize() {
            TestModel m = x(13, 2, 3).node("Cast", in("x"), out("y"), attr("to", (long) INT64.code()))
                    .node("Cast", in("x"), out("h"), attr("to", (long) ElementType.FLOAT16.code()));
            assertThat(t(m, "y").bytes()).isEqualTo(48);
            assertThat(t(m, "h").bytes()).isEqualTo(12);
        }
    }

    @Nested
    class Shapes {
        @Test
        void concatOnANegativeAxis() {
            TestModel m = x(13, 2, 3).input("b", FLOAT, 2, 5).node("Concat", in("x", "b"), out("y"), attr("axis", -1L));
            assertThat(shape(m, "y")).containsExactly(2, 8);
        }

        @Test
        void concatMismatch() {
            TestModel m = x(13, 2, 3).input("b", FLOAT, 4, 5).node("Concat", "cat", in("x", "b"), out("y"), attr("axis", 1L));
            invalid(m::load, "cat", "(Concat)", "dimension 0");
        }

        @Test
        void splitByInputAttributeAndEqualParts() {
            TestModel byInput = x(13, 4, 5).ints("s", 2, 3).node("Split", in("x", "s"), out("a", "b"), attr("axis", 1L));
            assertThat(shape(byInput, "a")).containsExactly(4, 2);
            assertThat(shape(byInput, "b")).containsExactly(4, 3);
            TestModel byAttr = x(11, 4, 5).node("Split", in("x"), out("a", "b"), attr("axis", -1L), attrs("split", 1, 4));
            assertThat(shape(byAttr, "b")).containsExactly(4, 4);
            TestModel equal = x(13, 4, 6).node("Split", in("x"), out("a", "b", "c"), attr("axis", -1L));
            assertThat(shape(equal, "c")).containsExactly(4, 2);
            TestModel uneven = x(18, 7).node("Split", in("x"), out("a", "b", "c"), attr("num_outputs", 3L));
            assertThat(shape(uneven, "a")).containsExactly(3);
            assertThat(shape(uneven, "c")).containsExactly(1);
        }

        @Test
        void sliceWithNegativeStartsStepsAndHugeEnds() {
            TestModel tail = x(13, 10, 20).ints("st", -3).ints("en", Long.MAX_VALUE).ints("ax", 1)
                    .node("Slice", in("x", "st", "en", "ax"), out("y"));
            assertThat(shape(tail, "y")).containsExactly(10, 3);
            TestModel reversed = x(13, 10, 20).ints("st", -1).ints("en", Long.MIN_VALUE).ints("ax", -1).ints("sp", -1)
                    .node("Slice", in("x", "st", "en", "ax", "sp"), out("y"));
            assertThat(shape(reversed, "y")).containsExactly(10, 20);
            TestModel strided = x(13, 10, 20).ints("st", 1).ints("en", 20).ints("ax", 1).ints("sp", 3)
                    .node("Slice", in("x", "st", "en", "ax", "sp"), out("y"));
            assertThat(shape(strided, "y")).containsExactly(10, 7);
            TestModel empty = x(13, 10, 20).ints("st", 5).ints("en", 2).node("Slice", in("x", "st", "en"), out("y"));
            assertThat(shape(empty, "y")).containsExactly(0, 20);
        }

        @Test
        void sliceOpset9UsesAttributes() {
            TestModel m = x(9, 10, 20).node("Slice", in("x"), out("y"), attrs("starts", 1), attrs("ends", 1000),
                    attrs("axes", 0));
            assertThat(shape(m, "y")).containsExactly(9, 20);
        }

        @Test
        void reshapeCopiesZerosAndInfersMinusOne() {
            TestModel m = x(13, 2, 3, 4).ints("s", 0, -1).node("Reshape", in("x", "s"), out("y"));
            assertThat(shape(m, "y")).containsExactly(2, 12);
            TestModel flat = x(13, 2, 3, 4).ints("s", -1).node("Reshape", in("x", "s"), out("y"));
            assertThat(shape(flat, "y")).containsExactly(24);
        }

        @Test
        void reshapeMismatchAndUnknownShape() {
            TestModel bad = x(13, 2, 3, 4).ints("s", 5, 5).node("Reshape", "rs", in("x", "s"), out("y"));
            invalid(bad::load, "rs", "(Reshape)", "24 elements");
            TestModel unknown = x(13, 2, 3, 4).input("s", INT64, 2).node("Reshape", "rs2", in("x", "s"), out("y"));
            invalid(unknown::load, "rs2", "(Reshape)", "values of input 1 's' (shape)", "not known");
        }

        @Test
        void transposeWithAndWithoutPerm() {
            TestModel m = x(13, 2, 3, 4).node("Transpose", in("x"), out("y"), attrs("perm", 2, 0, 1))
                    .node("Transpose", in("x"), out("z"));
            assertThat(shape(m, "y")).containsExactly(4, 2, 3);
            assertThat(shape(m, "z")).containsExactly(4, 3, 2);
        }

        @Test
        void squeezeAttributeBeforeOpset13InputFrom13() {
            TestModel attrForm = x(11, 3, 1).node("Squeeze", in("x"), out("y"), attrs("axes", -1));
            assertThat(shape(attrForm, "y")).containsExactly(3);
            TestModel inputForm = x(13, 1, 3, 1).ints("a", 0).node("Squeeze", in("x", "a"), out("y"));
            assertThat(shape(inputForm, "y")).containsExactly(3, 1);
            TestModel all = x(13, 1, 3, 1).node("Squeeze", in("x"), out("y"));
            assertThat(shape(all, "y")).containsExactly(3);
            TestModel bad = x(13, 2, 3).ints("a", 1).node("Squeeze", "sq", in("x", "a"), out("y"));
            invalid(bad::load, "sq", "(Squeeze)", "size is 3, not 1");
        }

        @Test
        void unsqueezeNegativeAxesCountInTheOutput() {
            TestModel attrForm = x(11, 3, 4).node("Unsqueeze", in("x"), out("y"), attrs("axes", 0, -1));
            assertThat(shape(attrForm, "y")).containsExactly(1, 3, 4, 1);
            TestModel inputForm = x(13, 3, 4).ints("a", 1).node("Unsqueeze", in("x", "a"), out("y"));
            assertThat(shape(inputForm, "y")).containsExactly(3, 1, 4);
            TestModel missing = x(13, 3, 4).node("Unsqueeze", "us", in("x"), out("y"));
            invalid(missing::load, "us", "(Unsqueeze)", "axes");
        }

        @Test
        void flattenAxes() {
            TestModel m = x(13, 2, 3, 4).node("Flatten", in("x"), out("a"), attr("axis", -1L))
                    .node("Flatten", in("x"), out("b"), attr("axis", 0L)).node("Flatten", in("x"), out("c"));
            assertThat(shape(m, "a")).containsExactly(6, 4);
            assertThat(shape(m, "b")).containsExactly(1, 24);
            assertThat(shape(m, "c")).containsExactly(2, 12);
        }

        @Test
        void padAttributeAndInputForms() {
            TestModel input = x(11, 1, 3, 4, 4).ints("p", 0, 0, 1, 2, 0, 0, 1, 2).node("Pad", in("x", "p"), out("y"));
            assertThat(shape(input, "y")).containsExactly(1, 3, 6, 8);
            TestModel attrForm = x(2, 1, 3, 4, 4).node("Pad", in("x"), out("y"), attrs("pads", 0, 0, 0, 1, 0, 0, 0, -1));
            assertThat(shape(attrForm, "y")).containsExactly(1, 3, 4, 4);
            TestModel huge = x(11, 1, 4).ints("p", 0, Long.MAX_VALUE, 0, 1).node("Pad", "pad9", in("x", "p"), out("y"));
            invalid(huge::load, "pad9", "overflow");
            TestModel crop = x(11, 1, 4).ints("p", 0, -3, 0, -2).node("Pad", "pad10", in("x", "p"), out("y"));
            invalid(crop::load, "pad10", "remove more than dimension 1");
        }

        @Test
        void shapeGatherAndRange() {
            TestModel m = x(15, 2, 3, 4).node("Shape", in("x"), out("s")).node("Shape", in("x"), out("s1"),
                            attr("start", 1L), attr("end", -1L))
                    .scalar("i", -1).node("Gather", in("s", "i"), out("last"))
                    .ints("ii", 0, 2).node("Gather", in("x", "ii"), out("g"), attr("axis", -1L))
                    .scalar("r0", 0).scalar("r1", 10).scalar("r2", 3).node("Range", in("r0", "r1", "r2"), out("r"));
            TensorRecord s = t(m, "s");
            assertThat(s.type()).isEqualTo(INT64);
            assertThat(s.shape().dims()).containsExactly(3);
            assertThat(shape(m, "s1")).containsExactly(1);
            assertThat(shape(m, "last")).isEmpty();
            assertThat(shape(m, "g")).containsExactly(2, 3, 2);
            assertThat(shape(m, "r")).containsExactly(4);
        }

        @Test
        void gatherIndexOutOfRange() {
            TestModel m = x(13, 2, 3).node("Shape", in("x"), out("s")).scalar("i", 2).node("Gather", "g", in("s", "i"), out("v"));
            invalid(m::load, "g", "(Gather)", "index 2");
        }

        @Test
        void constantOfShapeExpandAndTile() {
            TestModel m = x(13, 3, 1).ints("shape", 2, 3).node("ConstantOfShape", in("shape"), out("z"),
                            attr("value", TestModel.intTensor("v", new long[]{1}, 7)))
                    .node("ConstantOfShape", in("shape"), out("f"))
                    .ints("e", 2, 1, 4).node("Expand", in("x", "e"), out("ex"))
                    .ints("rep", 2, 3).node("Tile", in("x", "rep"), out("ti"));
            assertThat(t(m, "z").type()).isEqualTo(INT64);
            assertThat(t(m, "z").bytes()).isEqualTo(48);
            assertThat(t(m, "f").type()).isEqualTo(FLOAT);
            assertThat(shape(m, "ex")).containsExactly(2, 3, 4);
            assertThat(shape(m, "ti")).containsExactly(6, 3);
        }
    }

    @Nested
    class Reductions {
        @Test
        void reduceMeanAttributeAxes() {
            TestModel keep = x(13, 2, 3, 4).node("ReduceMean", in("x"), out("y"), attrs("axes", -1));
            TestModel drop = x(13, 2, 3, 4).node("ReduceMean", in("x"), out("y"), attrs("axes", 0, -1), attr("keepdims", 0L));
            TestModel all = x(13, 2, 3, 4).node("ReduceMean", in("x"), out("y"));
            assertThat(shape(keep, "y")).containsExactly(2, 3, 1);
            assertThat(shape(drop, "y")).containsExactly(3);
            assertThat(shape(all, "y")).containsExactly(1, 1, 1);
        }

        @Test
        void reduceAxesAsInputFromOpset18AndReduceSumFrom13() {
            TestModel mean = x(18, 2, 3, 4).ints("a", 1).node("ReduceMean", in("x", "a"), out("y"), attr("keepdims", 0L));
            TestModel sum = x(13, 2, 3, 4).ints("a", -2).node("ReduceSum", in("x", "a"), out("y"));
            TestModel noop = x(18, 2, 3, 4).node("ReduceMax", in("x"), out("y"), attr("noop_with_empty_axes", 1L));
            assertThat(shape(mean, "y")).containsExactly(2, 4);
            assertThat(shape(sum, "y")).containsExactly(2, 1, 4);
            assertThat(shape(noop, "y")).containsExactly(2, 3, 4);
        }

        @Test
        void axisOutOfRangeNamesIt() {
            TestModel m = x(13, 2, 3).node("ReduceMean", "rm", in("x"), out("y"), attrs("axes", 2));
            invalid(m::load, "rm", "axis 2 is outside [-2, 1]");
        }
    }

    @Nested
    class Recurrent {
        private TestModel lstm(String direction, long dirs, long layout, Object... xDims) {
            return x(14, xDims).weight("W", dirs, 256, 64).weight("R", dirs, 256, 64)
                    .node("LSTM", in("x", "W", "R"), out("Y", "Yh", "Yc"), attr("hidden_size", 64L),
                            attr("direction", direction), attr("layout", layout));
        }

        @Test
        void forward() {
            TestModel m = lstm("forward", 1, 0, 3, 1, 64);
            assertThat(shape(m, "Y")).containsExactly(3, 1, 1, 64);
            assertThat(shape(m, "Yh")).containsExactly(1, 1, 64);
            assertThat(shape(m, "Yc")).containsExactly(1, 1, 64);
        }

        @Test
        void bidirectionalBatchFirst() {
            TestModel m = lstm("bidirectional", 2, 1, 5, 3, 64);
            assertThat(shape(m, "Y")).containsExactly(5, 3, 2, 64);
            assertThat(shape(m, "Yh")).containsExactly(5, 2, 64);
        }

        @Test
        void weightsForTheWrongDirectionCount() {
            TestModel m = x(14, 3, 1, 64).weight("W", 1, 256, 64).weight("R", 1, 256, 64)
                    .node("LSTM", "rnn", in("x", "W", "R"), out("Y"), attr("direction", "bidirectional"));
            invalid(m::load, "rnn", "(LSTM)", "directions");
        }
    }

    @Nested
    class ConstantFolding {
        /** The chain exporters write for {@code x.view(x.size(0), -1)}. */
        @Test
        void shapeGatherUnsqueezeConcatReshape() {
            TestModel m = x(13, "N", 3, "H", "W")
                    .node("Shape", in("x"), out("s"))
                    .scalar("zero", 0).node("Gather", in("s", "zero"), out("n"), attr("axis", 0L))
                    .ints("ax0", 0).node("Unsqueeze", in("n", "ax0"), out("n1"))
                    .ints("minus1", -1).node("Concat", in("n1", "minus1"), out("target"), attr("axis", 0L))
                    .node("Reshape", in("x", "target"), out("y")).output("y");
            ImportedModel im = m.load("x=2x3x4x5");
            assertThat(TestModel.byName(im).get("y").shape().dims()).containsExactly(2, 60);
            assertThat(TestModel.byName(im).get("target").bytes()).isEqualTo(16);
        }

        /** Integer arithmetic on shapes: H*W computed from Shape, then Div and Cast. */
        @Test
        void arithmeticOnShapes() {
            TestModel m = x(13, 1, 8, 6, 10)
                    .node("Shape", in("x"), out("s"))
                    .ints("hw", 2, 3).node("Gather", in("s", "hw"), out("dims"))
                    .node("ReduceProd", in("dims"), out("area"), attr("keepdims", 1L))
                    .ints("two", 2).node("Div", in("area", "two"), out("half"))
                    .ints("lead", 1, 8).node("Concat", in("lead", "half", "two"), out("target"), attr("axis", 0L))
                    .node("Reshape", in("x", "target"), out("y"));
            assertThat(shape(m, "y")).containsExactly(1, 8, 30, 2);
        }

        /** Resize scales computed in floats from a Shape. */
        @Test
        void floatScalesFromShapes() {
            TestModel m = x(13, 1, 3, 10, 20)
                    .node("Shape", in("x"), out("s"))
                    .node("Cast", in("s"), out("sf"), attr("to", (long) FLOAT.code()))
                    .floats("target", 1, 3, 25, 30).node("Div", in("target", "sf"), out("scales"))
                    .node("Resize", in("x", "", "scales"), out("y"));
            assertThat(shape(m, "y")).containsExactly(1, 3, 25, 30);
        }
    }

    @Nested
    class MoreOps {
        @Test
        void topKGivesValuesAndIndices() {
            TestModel m = x(11, 3, 10).ints("k", 4).node("TopK", in("x", "k"), out("v", "i"));
            assertThat(shape(m, "v")).containsExactly(3, 4);
            assertThat(t(m, "i").type()).isEqualTo(INT64);
            assertThat(t(m, "i").bytes()).isEqualTo(96);
        }

        @Test
        void oneHotInsertsTheDepth() {
            TestModel m = TestModel.opset(11).input("idx", INT64, 2, 3).scalar("depth", 5).floats("vals", 0, 1)
                    .node("OneHot", in("idx", "depth", "vals"), out("y"));
            assertThat(shape(m, "y")).containsExactly(2, 3, 5);
            assertThat(t(m, "y").type()).isEqualTo(FLOAT);
        }

        @Test
        void depthAndSpace() {
            TestModel m = x(13, 1, 8, 2, 3).node("DepthToSpace", in("x"), out("d"), attr("blocksize", 2L))
                    .node("SpaceToDepth", in("d"), out("s"), attr("blocksize", 2L));
            assertThat(shape(m, "d")).containsExactly(1, 2, 4, 6);
            assertThat(shape(m, "s")).containsExactly(1, 8, 2, 3);
        }

        @Test
        void layerNormalizationStatistics() {
            TestModel m = x(17, 2, 3, 4).weight("g", 4).node("LayerNormalization", in("x", "g"), out("y", "mean", "inv"));
            assertThat(shape(m, "y")).containsExactly(2, 3, 4);
            assertThat(shape(m, "mean")).containsExactly(2, 3, 1);
            assertThat(shape(m, "inv")).containsExactly(2, 3, 1);
        }

        @Test
        void argMaxDropsTheAxis() {
            TestModel m = x(13, 2, 3, 4).node("ArgMax", in("x"), out("y"), attr("axis", 1L), attr("keepdims", 0L));
            assertThat(shape(m, "y")).containsExactly(2, 4);
            assertThat(t(m, "y").type()).isEqualTo(INT64);
        }

        @Test
        void whereBroadcastsThreeInputs() {
            TestModel m = TestModel.opset(13).input("c", BOOL, 3, 1).input("a", FLOAT, 1, 4).input("b", FLOAT)
                    .node("Where", in("c", "a", "b"), out("y"));
            assertThat(shape(m, "y")).containsExactly(3, 4);
            assertThat(t(m, "y").type()).isEqualTo(FLOAT);
        }

        @Test
        void upsampleOpset9() {
            TestModel m = x(9, 1, 2, 5, 5).floats("s", 1, 1, 2, 3).node("Upsample", in("x", "s"), out("y"));
            assertThat(shape(m, "y")).containsExactly(1, 2, 10, 15);
        }

        @Test
        void gruHasTwoOutputs() {
            TestModel m = x(14, 5, 2, 10).weight("W", 1, 48, 10).weight("R", 1, 48, 16)
                    .node("GRU", in("x", "W", "R"), out("Y", "Yh"), attr("hidden_size", 16L));
            assertThat(shape(m, "Y")).containsExactly(5, 1, 2, 16);
            assertThat(shape(m, "Yh")).containsExactly(1, 2, 16);
        }

        @Test
        void variadicMaxDropoutAndSize() {
            TestModel m = x(13, 2, 1).input("b", FLOAT, 1, 3).input("c", FLOAT, 3)
                    .node("Max", in("x", "b", "c"), out("mx"))
                    .node("Dropout", in("mx"), out("d", "mask"))
                    .node("Size", in("mx"), out("n"));
            assertThat(shape(m, "mx")).containsExactly(2, 3);
            assertThat(t(m, "mask").type()).isEqualTo(BOOL);
            assertThat(t(m, "mask").bytes()).isEqualTo(6);
            assertThat(shape(m, "n")).isEmpty();
            assertThat(t(m, "n").bytes()).isEqualTo(8);
        }

        @Test
        void anOutputTheOpDoesNotHave() {
            TestModel m = x(13, 2).node("Relu", "relu2", in("x"), out("a", "b"));
            invalid(m::load, "relu2", "has output 1 'b' but Relu defines only 1 output");
        }
    }

    @Test
    void attributeOfTheWrongTypeIsInvalid() {
        AttributeProto axisAsFloat = attr("axis", 1.0f);
        TestModel m = x(13, 2, 3).node("Flatten", "fl", in("x"), out("y"), axisAsFloat);
        invalid(m::load, "fl", "attribute 'axis' should be INT");
    }
}
