package dev.berth.bench;

import dev.berth.schedule.Graph;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Seeded weightless operator graphs whose operator order matters (issue 28's second measured goal):
 * RandWire cells, NASNet-like cells and U-Nets. Tensors are float32, their bytes follow from the
 * structure (channels x height x width x 4), aligned to 64 bytes; every graph's file order is the
 * order its generator defines the operators in, as a framework's exporter writes a model. The same
 * family, seed and variant give the same graph.
 *
 * <ul>
 * <li><b>RandWire</b> ({@link #randWire}): the random graph of HMCOS's {@code script/randwire.py}
 *     (which follows Xie et al., "Exploring Randomly Wired Neural Networks", 2019): WS(32, 4, 0.75),
 *     a ring of 32 nodes, each joined to its 2 nearest neighbours on either side; then, node by node,
 *     each of its 2 clockwise edges is rewired with probability 0.75 to a node chosen uniformly among
 *     those not yet joined to it; every edge then runs from the lower index to the higher (a DAG by
 *     node index). A node with no predecessor reads the cell's input at stride 2, a node with none
 *     succeeding it is an output of the cell, and the cell's output is their mean (as the script's
 *     {@code reduce_mean} of the stacked outputs). Cell 1, 2 or 3 of the script's network with 78
 *     channels on a 224 x 224 image: nodes of 78 x 28 x 28, 156 x 14 x 14 or 312 x 7 x 7, the input
 *     of 78 x 56 x 56, 78 x 28 x 28 or 156 x 14 x 14. Coarse: one operator per node (aggregate,
 *     ReLU, separable convolution), 33 operators. Fine: a node is a weighted sum of its inputs (if
 *     more than one), a ReLU, a depthwise and a pointwise convolution, as the script builds it with
 *     batch normalisation folded in; the sum, the ReLU and the mean are elementwise.</li>
 * <li><b>NASNet-like cells</b> ({@link #nasnet}): the cell structure of Zoph et al. ("Learning
 *     Transferable Architectures", 2018) as HMCOS's {@code script/nasnet.py} builds it: the two
 *     previous cells' outputs are squeezed to F channels (ReLU and a 1 x 1 convolution, or the
 *     factorised reduction when the earlier one has twice the resolution), then five blocks each
 *     apply two operations, each to a state chosen among the earlier ones, and add them; the cell's
 *     output concatenates the blocks' outputs that no block reads. The genotype (each block's two
 *     inputs and operations: identity, separable 3/5/7 (ReLU, depthwise, pointwise, twice), dilated 3
 *     (ReLU, depthwise, pointwise), average or max pooling, 1x7 then 7x1) is drawn from the seed. A
 *     reduction cell doubles F and applies its operations to the two inputs at stride 2. A stack
 *     ({@link #nasnetStack}): three cells, normal, normal, reduction, each reading the outputs of
 *     the two before it.</li>
 * <li><b>U-Net</b> ({@link #unet}): Ronneberger et al.'s encoder and decoder with skips. Valid
 *     convolutions (the original, with the encoder's features cropped to the decoder's size before
 *     each concatenation), or same padding, where each skip may pass a 1 x 1 projection before its
 *     concatenation; depth, channels and resolution from the seed.</li>
 * </ul>
 */
public final class IrregularGraphs {
    /** Every generated graph's alignment: the npu-ref global space's. */
    public static final long ALIGNMENT = 64;

    private IrregularGraphs() {
    }

    /** A generated graph with its family and seed. */
    public record Generated(String family, long seed, Graph graph) {
    }

    /**
     * The Watts-Strogatz graph WS(n, k, p) made a DAG by node index, as HMCOS's randwire.py builds
     * it: per node, its predecessors in increasing order.
     */
    static int[][] wattsStrogatz(int n, int k, double p, SplittableRandom rnd) {
        boolean[][] adj = new boolean[n][n];
        for (int i = 0; i < n; i++) {
            adj[i][i] = true; // no self-loops: a node is never "unoccupied" for itself
            for (int j = i - k / 2; j <= i + k / 2; j++) {
                int other = Math.floorMod(j, n);
                if (other != i) {
                    adj[i][other] = true;
                    adj[other][i] = true;
                }
            }
        }
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < k / 2; j++) {
                int current = (i + j + 1) % n;
                if (rnd.nextDouble() < p) {
                    List<Integer> unoccupied = new ArrayList<>();
                    for (int x = 0; x < n; x++) {
                        if (!adj[i][x]) {
                            unoccupied.add(x);
                        }
                    }
                    int target = unoccupied.get(rnd.nextInt(unoccupied.size()));
                    adj[i][current] = false;
                    adj[current][i] = false;
                    adj[i][target] = true;
                    adj[target][i] = true;
                }
            }
        }
        int[][] preds = new int[n][];
        for (int v = 0; v < n; v++) {
            List<Integer> p2 = new ArrayList<>();
            for (int u = 0; u < v; u++) {
                if (adj[u][v]) {
                    p2.add(u);
                }
            }
            preds[v] = p2.stream().mapToInt(Integer::intValue).toArray();
        }
        return preds;
    }

    /**
     * A RandWire cell: WS(32, 4, 0.75) from {@code seed}, as cell {@code cell} (1-3) of HMCOS's
     * network; {@code fine}: four operators per node (weighted sum, ReLU, depthwise, pointwise),
     * else one.
     */
    public static Graph randWire(long seed, int cell, boolean fine) {
        return randWire(seed, 32, cell, fine);
    }

    /** As {@link #randWire(long, int, boolean)} on WS({@code nodes}, 4, 0.75) (small ones for brute force). */
    static Graph randWire(long seed, int nodes, int cell, boolean fine) {
        if (cell < 1 || cell > 3) {
            throw new IllegalArgumentException("cell: 1, 2 or 3, got " + cell);
        }
        int[][] preds = wattsStrogatz(nodes, 4, 0.75, new SplittableRandom(seed));
        int n = preds.length;
        long channels = 78L << (cell - 1);
        long side = 28 >> (cell - 1);
        long node = GraphBuilder.tensor(channels, side, side);
        long in = cell == 1 ? GraphBuilder.tensor(78, 56, 56) : GraphBuilder.tensor(78L << (cell - 2), 2 * side, 2 * side);
        GraphBuilder g = new GraphBuilder("randwire-" + (fine ? "fine-" : "") + (nodes == 32 ? "" : "n" + nodes + "-") + "c" + cell
                + "-s" + seed);
        String x = g.input("x", in);
        boolean[] read = new boolean[n];
        String[] out = new String[n];
        for (int v = 0; v < n; v++) {
            List<String> inputs = new ArrayList<>();
            for (int u : preds[v]) {
                inputs.add(out[u]);
                read[u] = true;
            }
            if (inputs.isEmpty()) {
                inputs.add(x);
            }
            String name = "n" + v;
            if (!fine) {
                out[v] = g.op(name, inputs, node);
                continue;
            }
            String agg = inputs.size() > 1 ? g.elementwise(name + ".sum", inputs, node) : inputs.get(0);
            String relu = g.elementwise(name + ".relu", List.of(agg), g.bytes(agg));
            String dw = g.op(name + ".dw", List.of(relu), node);
            out[v] = g.op(name + ".pw", List.of(dw), node);
        }
        List<String> sinks = new ArrayList<>();
        for (int v = 0; v < n; v++) {
            if (!read[v]) {
                sinks.add(out[v]);
            }
        }
        String mean = fine ? g.elementwise("mean", sinks, node) : g.op("mean", sinks, node);
        g.output(mean);
        return g.build(ALIGNMENT);
    }

    /** One state of a NASNet cell: its tensor and shape. */
    private record State(String buffer, long channels, long side) {
    }

    private static final String[] NAS_OPS = {"id", "sep3x3", "sep5x5", "sep7x7", "dil3x3", "avg3x3", "max3x3", "1x7-7x1"};
    private static final int BLOCKS = 5;

    /** One block of a genotype: two operations, each on an earlier state (0, 1: the cell's inputs). */
    private record Block(int leftArg, String leftOp, int rightArg, String rightOp) {
    }

    /** A random genotype of {@link #BLOCKS} blocks. */
    private static List<Block> genotype(SplittableRandom rnd) {
        List<Block> blocks = new ArrayList<>();
        for (int b = 0; b < BLOCKS; b++) {
            blocks.add(new Block(rnd.nextInt(2 + b), NAS_OPS[rnd.nextInt(NAS_OPS.length)], rnd.nextInt(2 + b),
                    NAS_OPS[rnd.nextInt(NAS_OPS.length)]));
        }
        return blocks;
    }

    /**
     * A NASNet-like cell with a genotype drawn from {@code seed}: a normal cell, or a reduction cell
     * ({@code reduction}). Its inputs: the previous cell's output ({@code cur}, 4-6 F channels) and
     * the one before ({@code prev}; in a normal cell, at twice the resolution half the time, as
     * after a reduction cell).
     */
    public static Graph nasnet(long seed, boolean reduction) {
        SplittableRandom rnd = new SplittableRandom(seed);
        long filters = new long[]{32, 44, 64}[rnd.nextInt(3)];
        long side = new long[]{32, 16}[rnd.nextInt(2)];
        long curChannels = filters * (4 + rnd.nextInt(3));
        boolean prevLarger = !reduction && rnd.nextBoolean();
        long prevChannels = prevLarger ? filters / 2 * (4 + rnd.nextInt(3)) : filters * (4 + rnd.nextInt(3));
        GraphBuilder g = new GraphBuilder("nasnet-" + (reduction ? "reduction" : "normal") + "-s" + seed);
        long prevSide = prevLarger ? 2 * side : side;
        State prev = new State(g.input("prev", GraphBuilder.tensor(prevChannels, prevSide, prevSide)), prevChannels, prevSide);
        State cur = new State(g.input("cur", GraphBuilder.tensor(curChannels, side, side)), curChannels, side);
        State out = cell(g, "", prev, cur, genotype(rnd), reduction, reduction ? 2 * filters : filters);
        g.output(out.buffer());
        return g.build(ALIGNMENT);
    }

    /**
     * Three NASNet-like cells from {@code seed}, normal, normal, reduction (a normal and a reduction
     * genotype), each reading the two cells' outputs before it: the second and third cells' squeeze
     * of their earlier input may run while the cell before them runs.
     */
    public static Graph nasnetStack(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        long filters = new long[]{32, 44, 64}[rnd.nextInt(3)];
        long side = new long[]{32, 16}[rnd.nextInt(2)];
        long channels = filters * (4 + rnd.nextInt(3));
        List<Block> normal = genotype(rnd);
        List<Block> reduce = genotype(rnd);
        GraphBuilder g = new GraphBuilder("nasnet-stack-s" + seed);
        State prev = new State(g.input("prev", GraphBuilder.tensor(channels, side, side)), channels, side);
        State cur = new State(g.input("cur", GraphBuilder.tensor(channels, side, side)), channels, side);
        for (int c = 0; c < 3; c++) {
            boolean reduction = c == 2;
            State next = cell(g, "c" + c + ".", prev, cur, reduction ? reduce : normal, reduction, reduction ? 2 * filters : filters);
            prev = cur;
            cur = next;
        }
        g.output(cur.buffer());
        return g.build(ALIGNMENT);
    }

    /**
     * One cell, as the script's _create_normal/_create_reduction and _create_cell: {@code cur}
     * squeezed to {@code f} channels (ReLU, 1 x 1 convolution), then {@code prev} fitted to it (the
     * same, or the factorised reduction when it has twice the resolution), the blocks, and the
     * concatenation of the blocks' outputs no block reads.
     */
    private static State cell(GraphBuilder g, String prefix, State prev, State cur, List<Block> genotype, boolean reduction, long f) {
        long side = cur.side();
        String curSq = g.op(prefix + "cur.conv", List.of(g.elementwise(prefix + "cur.relu", List.of(cur.buffer()),
                g.bytes(cur.buffer()))), GraphBuilder.tensor(f, side, side));
        String prevRelu = g.elementwise(prefix + "prev.relu", List.of(prev.buffer()), g.bytes(prev.buffer()));
        String prevSq;
        if (prev.side() == 2 * side) {
            // factorised reduction: two half-width paths at stride 2, the second shifted by one pixel
            long half = GraphBuilder.tensor(prev.channels(), side, side);
            String c1 = g.op(prefix + "prev.conv1", List.of(g.op(prefix + "prev.pool1", List.of(prevRelu), half)),
                    GraphBuilder.tensor(f / 2, side, side));
            String shifted = g.op(prefix + "prev.shift", List.of(prevRelu), g.bytes(prevRelu));
            String c2 = g.op(prefix + "prev.conv2", List.of(g.op(prefix + "prev.pool2", List.of(shifted), half)),
                    GraphBuilder.tensor(f / 2, side, side));
            prevSq = g.op(prefix + "prev.concat", List.of(c1, c2), GraphBuilder.tensor(f, side, side));
        } else {
            prevSq = g.op(prefix + "prev.conv", List.of(prevRelu), GraphBuilder.tensor(f, side, side));
        }
        List<State> states = new ArrayList<>();
        states.add(new State(prevSq, f, side));
        states.add(new State(curSq, f, side));
        boolean[] read = new boolean[2 + genotype.size()];
        long outSide = reduction ? side / 2 : side;
        for (int b = 0; b < genotype.size(); b++) {
            Block block = genotype.get(b);
            read[block.leftArg()] = true;
            read[block.rightArg()] = true;
            String left = nasOp(g, prefix + "b" + b + ".l." + block.leftOp(), block.leftOp(), states.get(block.leftArg()),
                    reduction && block.leftArg() < 2 ? 2 : 1);
            String right = nasOp(g, prefix + "b" + b + ".r." + block.rightOp(), block.rightOp(), states.get(block.rightArg()),
                    reduction && block.rightArg() < 2 ? 2 : 1);
            states.add(new State(g.elementwise(prefix + "b" + b + ".add", List.of(left, right), GraphBuilder.tensor(f, outSide, outSide)),
                    f, outSide));
        }
        List<String> unused = new ArrayList<>();
        long channels = 0;
        for (int s = 2; s < states.size(); s++) {
            if (!read[s]) {
                unused.add(states.get(s).buffer());
                channels += states.get(s).channels();
            }
        }
        return new State(g.op(prefix + "concat", unused, GraphBuilder.tensor(channels, outSide, outSide)), channels, outSide);
    }

    /** One operation of a block applied to {@code in} at {@code stride}; returns its output tensor. */
    private static String nasOp(GraphBuilder g, String name, String kind, State in, int stride) {
        long side = in.side() / stride;
        long out = GraphBuilder.tensor(in.channels(), side, side);
        String x = in.buffer();
        switch (kind) {
            case "id" -> {
                return stride == 1 ? x : g.op(name + ".pool", List.of(x), out);
            }
            case "sep3x3", "sep5x5", "sep7x7" -> {
                String a = g.op(name + ".pw1", List.of(g.op(name + ".dw1",
                        List.of(g.elementwise(name + ".relu1", List.of(x), g.bytes(x))), out)), out);
                return g.op(name + ".pw2", List.of(g.op(name + ".dw2",
                        List.of(g.elementwise(name + ".relu2", List.of(a), out)), out)), out);
            }
            case "dil3x3" -> {
                return g.op(name + ".pw", List.of(g.op(name + ".dw",
                        List.of(g.elementwise(name + ".relu", List.of(x), g.bytes(x))), out)), out);
            }
            case "avg3x3", "max3x3" -> {
                return g.op(name, List.of(x), out);
            }
            case "1x7-7x1" -> {
                return g.op(name + ".7x1", List.of(g.op(name + ".1x7", List.of(x), out)), out);
            }
            default -> throw new IllegalArgumentException(kind);
        }
    }

    /**
     * A U-Net from {@code seed}: depth 3 or 4, 8-32 base channels (doubling per level), valid
     * convolutions with crops (the original's) or same padding with optional 1 x 1 projections of
     * the skips. {@code decoderOnly}: the decoder alone, the encoder's features (the skips and the
     * bottleneck's input) its graph inputs.
     */
    public static Graph unet(long seed, boolean decoderOnly) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int depth = 3 + rnd.nextInt(2);
        long base = new long[]{8, 16, 32}[rnd.nextInt(3)];
        boolean valid = rnd.nextBoolean();
        GraphBuilder g = new GraphBuilder("unet-" + (decoderOnly ? "decoder-" : "") + (valid ? "valid" : "same") + "-d" + depth
                + "-s" + seed);
        long[] sides = new long[depth + 1]; // input side of each encoder level, then of the bottleneck
        if (valid) {
            sides[depth] = new long[]{12, 16, 20}[rnd.nextInt(3)];
            for (int l = depth - 1; l >= 0; l--) {
                sides[l] = 2 * sides[l + 1] + 4; // two valid 3 x 3 convolutions, then 2 x 2 pooling
            }
        } else {
            sides[0] = new long[]{96, 128, 160}[rnd.nextInt(3)];
            for (int l = 1; l <= depth; l++) {
                sides[l] = sides[l - 1] / 2;
            }
        }
        long shrink = valid ? 2 : 0;
        String[] skip = new String[depth];
        String x;
        if (decoderOnly) {
            for (int l = 0; l < depth; l++) {
                long side = sides[l] - 2 * shrink;
                skip[l] = g.input("skip" + l, GraphBuilder.tensor(base << l, side, side));
            }
            x = g.input("bottom", GraphBuilder.tensor(base << (depth - 1), sides[depth], sides[depth]));
        } else {
            x = g.input("image", GraphBuilder.tensor(3, sides[0], sides[0]));
            for (int l = 0; l < depth; l++) {
                long c = base << l;
                long s = sides[l];
                String a = g.op("enc" + l + ".conv1", List.of(x), GraphBuilder.tensor(c, s - shrink, s - shrink));
                skip[l] = g.op("enc" + l + ".conv2", List.of(a), GraphBuilder.tensor(c, s - 2 * shrink, s - 2 * shrink));
                long pooled = (s - 2 * shrink) / 2;
                x = g.op("enc" + l + ".pool", List.of(skip[l]), GraphBuilder.tensor(c, pooled, pooled));
            }
        }
        long c = base << depth;
        long s = sides[depth];
        x = g.op("mid.conv2", List.of(g.op("mid.conv1", List.of(x), GraphBuilder.tensor(c, s - shrink, s - shrink))),
                GraphBuilder.tensor(c, s - 2 * shrink, s - 2 * shrink));
        s = s - 2 * shrink;
        for (int l = depth - 1; l >= 0; l--) {
            c = base << l;
            s = 2 * s;
            String up = g.op("dec" + l + ".up", List.of(x), GraphBuilder.tensor(c, s, s));
            String fromSkip = skip[l];
            long skipChannels = c;
            if (valid) {
                fromSkip = g.op("dec" + l + ".crop", List.of(skip[l]), GraphBuilder.tensor(c, s, s));
            } else if (rnd.nextBoolean()) {
                skipChannels = Math.max(1, c * new long[]{1, 2, 8}[rnd.nextInt(3)] / 4);
                fromSkip = g.op("dec" + l + ".proj", List.of(skip[l]), GraphBuilder.tensor(skipChannels, s, s));
            }
            String cat = g.op("dec" + l + ".concat", List.of(fromSkip, up), GraphBuilder.tensor(skipChannels + c, s, s));
            String a = g.op("dec" + l + ".conv1", List.of(cat), GraphBuilder.tensor(c, s - shrink, s - shrink));
            x = g.op("dec" + l + ".conv2", List.of(a), GraphBuilder.tensor(c, s - 2 * shrink, s - 2 * shrink));
            s = s - 2 * shrink;
        }
        g.output(g.op("head", List.of(x), GraphBuilder.tensor(2, s, s)));
        return g.build(ALIGNMENT);
    }

    /** The harness's graphs: {@code seeds} seeds of each family and variant. */
    public static List<Generated> all(int seeds) {
        List<Generated> out = new ArrayList<>();
        for (long seed = 1; seed <= seeds; seed++) {
            int cell = (int) ((seed - 1) % 3) + 1;
            out.add(new Generated("randwire", seed, randWire(seed, cell, false)));
        }
        for (long seed = 1; seed <= seeds; seed++) {
            out.add(new Generated("nasnet-normal", seed, nasnet(seed, false)));
        }
        for (long seed = 1; seed <= seeds; seed++) {
            out.add(new Generated("nasnet-reduction", seed, nasnet(seed, true)));
        }
        for (long seed = 1; seed <= seeds; seed++) {
            out.add(new Generated("unet", seed, unet(seed, false)));
        }
        for (long seed = 1; seed <= seeds; seed++) {
            out.add(new Generated("unet-decoder", seed, unet(seed, true)));
        }
        for (long seed = 1; seed <= seeds; seed++) {
            int cell = (int) ((seed - 1) % 3) + 1;
            out.add(new Generated("randwire-fine", seed, randWire(seed, cell, true)));
        }
        for (long seed = 1; seed <= seeds; seed++) {
            out.add(new Generated("nasnet-stack", seed, nasnetStack(seed)));
        }
        return out;
    }
}
