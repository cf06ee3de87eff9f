package dev.berth.cli;

import dev.berth.failure.BerthException;
import dev.berth.failure.Require;
import dev.berth.io.onnx.OnnxSchedule;
import dev.berth.io.tflite.TfliteSchedule;
import dev.berth.plan.Lowering;
import dev.berth.schedule.Graph;
import dev.berth.schedule.InPlace;
import dev.berth.schedule.Order;
import dev.berth.schedule.OrderSearch;
import dev.berth.schedule.Schedule;
import dev.berth.workload.Operators;
import dev.berth.workload.Workload;
import picocli.CommandLine.Option;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code plan}'s options for a workload with operators (contract §5.3, §7): the order they run in
 * and which declared in-place pairs may be taken (a picocli mixin), and what they make of a workload.
 */
final class OperatorOptions {
    @Option(names = "--order", paramLabel = "file|best", defaultValue = "file",
            description = "For a workload with operators: run them in the listed order (file), or in the order with "
                    + "the lowest peak of live bytes that the search finds and, within its work, proves (best; never "
                    + "worse than the listed one). Default: ${DEFAULT-VALUE}.")
    String order;

    @Option(names = "--in-place", paramLabel = "none|views|elementwise", defaultValue = "none",
            description = "For a workload with operators: which declared overwrites may be taken where the input dies "
                    + "(none; views; elementwise: views and elementwise kernels); a taken pair shares one offset. "
                    + "Default: ${DEFAULT-VALUE}.")
    String inPlace;

    /**
     * What the options make of a workload: the workload to plan (for one with operators, in the chosen
     * order with the chosen pairs), the search's answer, and the best other settings when they would
     * lower the peak.
     */
    record Scheduled(Workload workload, Optional<Chosen> chosen) {
    }

    /**
     * The schedule taken, at these settings, whether the workload was planned in it ({@code lowered};
     * not a model at the defaults, which is planned as imported), and a better one at other settings
     * if there is one.
     */
    record Chosen(Order order, InPlace inPlace, Schedule schedule, boolean lowered, Optional<Better> better) {
    }

    /** Settings that would lower the peak of live bytes, and to what. */
    record Better(Order order, InPlace inPlace, long peak) {
    }

    /** The options as given, a value ({@link Settings}). */
    Settings settings() {
        return new Settings(order, inPlace);
    }

    /**
     * The two options as given ({@code orderId}, {@code inPlaceId}: the values picocli read), with
     * what they mean and what they make of a workload; each is checked where it is read, as
     * {@link #order} and {@link #inPlace}.
     */
    record Settings(String orderId, String inPlaceId) {
        Settings {
            Objects.requireNonNull(orderId, "orderId");
            Objects.requireNonNull(inPlaceId, "inPlaceId");
        }

        Order order() {
            return Arrays.stream(Order.values()).filter(o -> o.id().equals(orderId)).findFirst().orElseThrow(() ->
                    Require.invalid("--order", orderId, "'" + orderId + "' is not one of file, best"));
        }

        InPlace inPlace() {
            return Arrays.stream(InPlace.values()).filter(l -> l.id().equals(inPlaceId)).findFirst().orElseThrow(() ->
                    Require.invalid("--in-place", inPlaceId, "'" + inPlaceId + "' is not one of "
                            + "none, views, elementwise"));
        }

        /** True when the settings are the defaults ({@code --order file --in-place none}). */
        boolean defaults() {
            return order() == Order.FILE && inPlace() == InPlace.NONE;
        }

        /**
         * What the settings make of what was loaded. A workload with listed operators: in the chosen
         * order with the chosen pairs. An ONNX or TFLite model: its graph (contract §5.4) searched, and,
         * with settings other than the defaults, its workload in the chosen order with the chosen pairs;
         * with the defaults the workload stays as imported (its plan is today's) and only the report
         * says what other settings would save (nothing when the model has no graph; only other orders
         * unless {@code pairsAllowed}: not with {@code --fast-space}). Anything else is
         * planned as it is, where settings other than the defaults are {@code invalid-input}: there is
         * nothing to order.
         */
        Scheduled apply(WorkloadSources.Loaded in, String source, boolean pairsAllowed) {
            Order o = order();
            InPlace l = inPlace();
            Workload w = in.workload();
            boolean listed = w.operators() instanceof Operators.Listed;
            Optional<Graph> graph;
            try {
                graph = listed ? Optional.of(Lowering.graph(w))
                        : in.source() instanceof WorkloadSources.Source.Onnx onnx
                        ? Optional.of(OnnxSchedule.graph(onnx.model()))
                        : in.source() instanceof WorkloadSources.Source.Tflite tflite
                        ? Optional.of(TfliteSchedule.graph(tflite.model()))
                        : Optional.empty();
            } catch (BerthException e) {
                if (listed || !defaults()) {
                    throw e;
                }
                graph = Optional.empty(); // a model without a graph (control flow): planned as today
            }
            if (graph.isEmpty()) {
                if (!defaults()) {
                    String opt = o != Order.FILE ? "--order" : "--in-place";
                    String value = o != Order.FILE ? o.id() : l.id();
                    throw BerthException.invalid(opt, value, opt + " " + value + ": " + source + " lists no operators to "
                            + "order or to write over one another (a workload file with operators, contract §5.3, or an "
                            + "ONNX or TFLite model)");
                }
                return new Scheduled(w, Optional.empty());
            }
            Graph g = graph.get();
            Schedule s = OrderSearch.search(g, o, l);
            boolean lower = listed || !defaults();
            return new Scheduled(lower ? Lowering.lower(w, g, s) : w, Optional.of(new Chosen(o, l, s, lower,
                    better(g, o, l, s.peak(), pairsAllowed))));
        }

        /**
         * The settings with the lowest peak below {@code peak} among those that allow more than these
         * (more pairs, then any order, then both; no pairs unless {@code pairsAllowed}), the simplest
         * first among equals.
         */
        private static Optional<Better> better(Graph g, Order o, InPlace l, long peak, boolean pairsAllowed) {
            Optional<Better> best = Optional.empty();
            for (Order to : List.of(o, Order.BEST).stream().distinct().toList()) {
                for (InPlace lt : InPlace.values()) {
                    if ((to == o && lt.ordinal() <= l.ordinal()) || lt.ordinal() < l.ordinal()
                            || (!pairsAllowed && lt != InPlace.NONE)) {
                        continue;
                    }
                    long p = OrderSearch.search(g, to, lt).peak();
                    if (p < best.map(Better::peak).orElse(peak)) {
                        best = Optional.of(new Better(to, lt, p));
                    }
                }
            }
            return best;
        }
    }
}
