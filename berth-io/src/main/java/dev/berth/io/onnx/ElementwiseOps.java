package dev.berth.io.onnx;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Ops whose output has the (broadcast) shape of their inputs: activations, arithmetic, comparisons, Cast. */
final class ElementwiseOps {
    private ElementwiseOps() {
    }

    /** Same type and shape as input 0. */
    static final List<String> UNARY = List.of("Abs", "Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "Ceil", "Celu",
            "Cos", "Cosh", "Elu", "Erf", "Exp", "Floor", "Gelu", "HardSigmoid", "HardSwish", "Hardmax", "LeakyRelu", "Log",
            "LogSoftmax", "LpNormalization", "LRN", "MeanVarianceNormalization", "Mish", "Neg", "Not", "Reciprocal",
            "Relu", "Round", "Selu", "Shrink", "Sigmoid", "Sign", "Sin", "Sinh", "Softmax", "Softplus", "Softsign", "Sqrt",
            "Tan", "Tanh", "ThresholdedRelu", "Clip", "CumSum", "InstanceNormalization", "Identity");

    static final Map<String, Fold.Binary> BINARY = Map.ofEntries(
            Map.entry("Add", Fold.Binary.ADD), Map.entry("Sub", Fold.Binary.SUB), Map.entry("Mul", Fold.Binary.MUL),
            Map.entry("Div", Fold.Binary.DIV), Map.entry("Pow", Fold.Binary.POW), Map.entry("Mod", Fold.Binary.MOD),
            Map.entry("Equal", Fold.Binary.EQUAL), Map.entry("Less", Fold.Binary.LESS),
            Map.entry("Greater", Fold.Binary.GREATER), Map.entry("LessOrEqual", Fold.Binary.LESS_OR_EQUAL),
            Map.entry("GreaterOrEqual", Fold.Binary.GREATER_OR_EQUAL), Map.entry("And", Fold.Binary.AND),
            Map.entry("Or", Fold.Binary.OR), Map.entry("Xor", Fold.Binary.XOR));

    /** Variadic broadcasting ops. */
    static final Map<String, Fold.Binary> VARIADIC = Map.of("Max", Fold.Binary.MAX, "Min", Fold.Binary.MIN,
            "Sum", Fold.Binary.ADD);

    static void register(Map<String, OpRule> rules) {
        for (String op : UNARY) {
            rules.put(op, ElementwiseOps::unary);
        }
        for (String op : BINARY.keySet()) {
            rules.put(op, ElementwiseOps::binary);
        }
        for (String op : VARIADIC.keySet()) {
            rules.put(op, ElementwiseOps::variadic);
        }
        rules.put("Mean", ElementwiseOps::variadic);
        rules.put("PRelu", n -> List.of(Inferred.of(n.in(0).type(), Broadcast.shapes(n, n.in(0).shape(), n.in(1).shape()))));
        rules.put("Where", ElementwiseOps::where);
        rules.put("IsNaN", n -> List.of(Inferred.of(ElementType.BOOL, n.in(0).shape())));
        rules.put("IsInf", n -> List.of(Inferred.of(ElementType.BOOL, n.in(0).shape())));
        rules.put("BatchNormalization", ElementwiseOps::batchNorm);
        rules.put("Dropout", n -> List.of(Inferred.sameAs(n.in(0)), Inferred.of(ElementType.BOOL, n.in(0).shape())));
        rules.put("Cast", ElementwiseOps::cast);
        rules.put("CastLike", n -> castTo(n, n.in(1).type()));
        rules.put("QuantizeLinear", n -> List.of(Inferred.of(n.optIn(2).map(TensorInfo::type).orElse(ElementType.UINT8),
                n.in(0).shape())));
        rules.put("DequantizeLinear", n -> List.of(Inferred.of(n.in(1).type(), n.in(0).shape())));
    }

    private static List<Inferred> unary(Node n) {
        TensorInfo x = n.in(0);
        Optional<Values> v = Optional.empty();
        if (x.values().isPresent()) {
            Values in = x.values().get();
            v = switch (n.op()) {
                case "Identity" -> Optional.of(in);
                case "Neg" -> in.integral() ? negate(in) : Optional.of(Values.ofReals(map(in, d -> -d)));
                case "Abs" -> in.integral() ? absolute(in) : Optional.of(Values.ofReals(map(in, Math::abs)));
                case "Not" -> in.integral() ? Optional.of(Values.ofInts(mapLong(in, l -> l == 0 ? 1 : 0))) : Optional.empty();
                case "Floor" -> in.integral() ? Optional.of(in) : Optional.of(Values.ofReals(map(in, Math::floor)));
                case "Ceil" -> in.integral() ? Optional.of(in) : Optional.of(Values.ofReals(map(in, Math::ceil)));
                case "Sqrt" -> in.integral() ? Optional.empty()
                        : Optional.of(Values.ofReals(map(in, d -> Fold.round(x.type(), Math.sqrt(d)))));
                default -> Optional.empty();
            };
            if (v.isPresent() && v.get().integral()) {
                v = Fold.ints(x.type(), v.get().longs());
            }
        }
        return List.of(new Inferred(x.type(), x.shape(), v));
    }

    private interface DoubleOp {
        double apply(double d);
    }

    private interface LongOp {
        long apply(long l);
    }

    private static double[] map(Values in, DoubleOp f) {
        double[] r = new double[in.size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = f.apply(in.doubleAt(i));
        }
        return r;
    }

    private static long[] mapLong(Values in, LongOp f) {
        long[] r = new long[in.size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = f.apply(in.longAt(i));
        }
        return r;
    }

    private static Optional<Values> negate(Values in) {
        try {
            return Optional.of(Values.ofInts(mapLong(in, Math::negateExact)));
        } catch (ArithmeticException e) {
            return Optional.empty();
        }
    }

    private static Optional<Values> absolute(Values in) {
        try {
            return Optional.of(Values.ofInts(mapLong(in, l -> l < 0 ? Math.negateExact(l) : l)));
        } catch (ArithmeticException e) {
            return Optional.empty();
        }
    }

    private static List<Inferred> binary(Node n) {
        TensorInfo a = n.in(0);
        TensorInfo b = n.in(1);
        Fold.Binary op = BINARY.get(n.op());
        Shape out = Broadcast.shapes(n, a.shape(), b.shape());
        ElementType type = op.comparison() || op == Fold.Binary.AND || op == Fold.Binary.OR || op == Fold.Binary.XOR
                ? ElementType.BOOL : a.type();
        if (op == Fold.Binary.MOD && n.attrInt("fmod", 0) == 1) {
            op = Fold.Binary.FMOD;
        }
        return List.of(new Inferred(type, out, Fold.binary(op, a, b, out, type)));
    }

    private static List<Inferred> variadic(Node n) {
        List<Shape> shapes = new ArrayList<>();
        for (int i = 0; i < n.inputCount(); i++) {
            shapes.add(n.in(i).shape());
        }
        if (shapes.isEmpty()) {
            throw n.fail("needs at least one input");
        }
        Shape out = Broadcast.shapes(n, shapes.toArray(new Shape[0]));
        ElementType type = n.in(0).type();
        Fold.Binary op = VARIADIC.get(n.op());
        Optional<Values> v = Optional.empty();
        if (op != null) {
            TensorInfo acc = n.in(0);
            for (int i = 1; i < n.inputCount() && acc.values().isPresent(); i++) {
                Shape s = Broadcast.shapes(n, acc.shape(), n.in(i).shape());
                acc = TensorInfo.of(acc.name(), type, s, Fold.binary(op, acc, n.in(i), s, type));
            }
            if (acc.shape().equals(out)) {
                v = acc.values();
            }
        }
        return List.of(new Inferred(type, out, v));
    }

    private static List<Inferred> where(Node n) {
        Shape out = Broadcast.shapes(n, n.in(0).shape(), n.in(1).shape(), n.in(2).shape());
        TensorInfo c = n.in(0);
        TensorInfo x = n.in(1);
        TensorInfo y = n.in(2);
        Optional<Values> v = Optional.empty();
        if (Fold.ready(out, List.of(c, x, y)) && c.values().get().integral()
                && x.values().get().integral() == y.values().get().integral()) {
            int[] ic = Broadcast.indexMap(c.shape(), out);
            int[] ix = Broadcast.indexMap(x.shape(), out);
            int[] iy = Broadcast.indexMap(y.shape(), out);
            Values vc = c.values().get();
            Values vx = x.values().get();
            Values vy = y.values().get();
            if (vx.integral()) {
                long[] r = new long[ic.length];
                for (int i = 0; i < r.length; i++) {
                    r[i] = vc.longAt(ic[i]) != 0 ? vx.longAt(ix[i]) : vy.longAt(iy[i]);
                }
                v = Optional.of(Values.ofInts(r));
            } else {
                double[] r = new double[ic.length];
                for (int i = 0; i < r.length; i++) {
                    r[i] = vc.longAt(ic[i]) != 0 ? vx.doubleAt(ix[i]) : vy.doubleAt(iy[i]);
                }
                v = Optional.of(Values.ofReals(r));
            }
        }
        return List.of(new Inferred(x.type(), out, v));
    }

    /**
     * Output 0 has X's shape; the training-mode outputs (running mean and variance, and before
     * opset 14 the saved mean and variance) have the scale's shape {@code [C]}.
     */
    private static List<Inferred> batchNorm(Node n) {
        TensorInfo x = n.in(0);
        Inferred stat = Inferred.of(n.in(1).type(), n.in(1).shape());
        return List.of(Inferred.sameAs(x), stat, stat, stat, stat);
    }

    private static List<Inferred> cast(Node n) {
        long to = n.attrInt("to").orElseThrow(() -> n.fail("needs attribute 'to'"));
        return castTo(n, ElementType.of((int) to, n.label() + " attribute 'to'"));
    }

    private static List<Inferred> castTo(Node n, ElementType to) {
        TensorInfo x = n.in(0);
        Optional<Values> v = x.values().flatMap(vals -> Fold.cast(vals, to));
        return List.of(new Inferred(to, x.shape(), v));
    }
}
