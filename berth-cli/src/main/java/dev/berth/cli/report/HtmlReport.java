package dev.berth.cli.report;

import dev.berth.arith.Checked;
import dev.berth.artifact.Assignment;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.target.EndConvention;
import dev.berth.target.Space;
import dev.berth.workload.Operator;
import dev.berth.workload.Origin;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The HTML report of a plan: one self-contained file (inline CSS, inline script, no network)
 * with one SVG chart per space, steps left to right and addresses bottom to top, each
 * reservation a rectangle whose geometry follows {@link ChartScale}.
 *
 * <p>What a reader of the DOM can rely on (the browser test does):
 * <ul>
 *   <li>each space's chart is {@code svg.chart[data-space=NAME]} with the scale's parameters as
 *       {@code data-} attributes (see {@link ChartScale});</li>
 *   <li>each reservation with reserved bytes is a {@code rect.r} with the class
 *       {@code o-ORIGIN} ({@code o-tensor}, {@code o-fixed}, {@code o-tile},
 *       {@code o-descriptor-table}, {@code o-instructions}) and {@code data-i}, its index in the
 *       plan's {@code buffers}; zero-byte reservations are counted, not drawn;</li>
 *   <li>a rectangle large enough for it carries a {@code text.name} label with
 *       {@code data-i} of its reservation;</li>
 *   <li>the lines are {@code line.high-water}, {@code line.lower-bound},
 *       {@code line.capacity}, {@code line.usable} (capacity less the runtime reserve) and
 *       {@code line.format-limit}, each drawn only when its address is on the axis; the
 *       peak-live step is {@code rect.peak-step} with {@code data-step};</li>
 *   <li>clicking a rectangle fills {@code #details}, one {@code dd[data-field=F]} per field
 *       (name, space, origin, offset, end, requested, reserved, alignment, live).</li>
 * </ul>
 */
public final class HtmlReport {
    private static final double LABEL_GAP = 13;

    private HtmlReport() {
    }

    /** The report as UTF-8 bytes. */
    public static byte[] toBytes(Plan plan) {
        return render(plan).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The report as one HTML document; for a plan with an assignment (its buffers had candidate
     * spaces, {@link Plan#assignment()}), a table of the choices (each buffer's space, its first
     * candidate, and why it is not there) and the charts of the spaces chosen between side by side
     * ({@code div.side-by-side}).
     */
    public static String render(Plan plan) {
        Optional<Assignment> assignment = plan.assignment();
        List<PlannedBuffer> all = plan.buffers();
        long steps = 1;
        for (PlannedBuffer b : all) {
            steps = Math.max(steps, (long) b.live().last() + 1);
        }
        String title = "Berth plan: " + plan.workload() + " on " + plan.target().name();
        StringBuilder sb = new StringBuilder(256 + all.size() * 220);
        sb.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<meta name=\"generator\" content=\"berth report\">\n")
                .append("<title>").append(Text.html(title)).append("</title>\n<style>\n")
                .append(resource("report.css")).append("</style>\n</head>\n<body>\n");
        sb.append("<svg class=\"defs\" width=\"0\" height=\"0\" aria-hidden=\"true\"><defs>")
                .append("<pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" ")
                .append("patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#9aa0a6\"/>")
                .append("<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#5f6368\" stroke-width=\"3\"/></pattern>")
                .append("</defs></svg>\n");
        sb.append("<main>\n<header>\n<h1>").append(Text.html(title)).append("</h1>\n<p class=\"sub\">")
                .append(all.size()).append(" reservations over ").append(steps).append(steps == 1 ? " step" : " steps")
                .append(", solver ").append(Text.html(plan.solver().id())).append(", ").append(plan.descriptors().size())
                .append(" descriptors. Hover a rectangle for a quick look, click it for its details.</p>\n");
        summary(sb, plan);
        legend(sb);
        sb.append("<p class=\"find\"><label for=\"find\">Find a reservation:</label> ")
                .append("<input id=\"find\" type=\"search\" placeholder=\"name contains\" autocomplete=\"off\"> ")
                .append("<span id=\"find-count\"></span></p>\n</header>\n");
        Set<String> chosen = new LinkedHashSet<>();
        assignment.ifPresent(a -> {
            choices(sb, plan, a);
            for (Assignment.Choice c : a.choices()) {
                chosen.add(c.space());
                c.why().ifPresent(w -> chosen.add(w.space()));
            }
        });
        plan.order().ifPresent(order -> order(sb, plan, order));
        if (chosen.size() > 1) {
            sb.append("<div class=\"side-by-side\">\n");
        }
        for (Map.Entry<String, SpaceMetrics> e : plan.spaces().entrySet()) {
            if (chosen.size() > 1 && chosen.contains(e.getKey())) {
                space(sb, plan, e.getKey(), e.getValue(), steps);
            }
        }
        if (chosen.size() > 1) {
            sb.append("</div>\n");
        }
        for (Map.Entry<String, SpaceMetrics> e : plan.spaces().entrySet()) {
            if (chosen.size() <= 1 || !chosen.contains(e.getKey())) {
                space(sb, plan, e.getKey(), e.getValue(), steps);
            }
        }
        sb.append("</main>\n<aside id=\"panel\"><h2>Details</h2><div id=\"details\">")
                .append("<p class=\"hint\">Click a reservation to see its details here.</p></div></aside>\n")
                .append("<div id=\"tip\" role=\"tooltip\" hidden></div>\n");
        data(sb, plan);
        sb.append("<script>\n").append(resource("report.js")).append("</script>\n</body>\n</html>\n");
        return sb.toString();
    }

    private static void summary(StringBuilder sb, Plan plan) {
        sb.append("<table class=\"summary\"><thead><tr><th>space</th><th>kind</th><th>capacity</th><th>high-water</th>")
                .append("<th>lower bound</th><th>peak live</th><th>efficiency</th><th>generation overhead</th>")
                .append("<th>runtime reserve</th><th>reservations</th><th>solver</th><th>proof</th></tr></thead><tbody>\n");
        for (Map.Entry<String, SpaceMetrics> e : plan.spaces().entrySet()) {
            SpaceMetrics m = e.getValue();
            long count = plan.buffers().stream().filter(b -> b.space().equals(e.getKey())).count();
            sb.append("<tr><td><a href=\"#space-").append(Text.html(e.getKey())).append("\">").append(Text.html(e.getKey()))
                    .append("</a></td><td>").append(Text.html(m.kind())).append("</td><td class=\"n\">")
                    .append(m.capacity().isPresent() ? Text.bytes(m.capacity().getAsLong())
                            : m.kind().equals("logical") ? "at deploy" : "none")
                    .append("</td><td class=\"n\">").append(Text.bytes(m.highWater()))
                    .append("</td><td class=\"n\">").append(m.optimality().map(o -> Text.bytes(o.lowerBound())).orElse("-"))
                    .append("</td><td class=\"n\">").append(Text.bytes(m.peakLive()))
                    .append("</td><td class=\"n\">").append(String.format(Locale.ROOT, "%.1f%%", 100 * m.efficiency()))
                    .append("</td><td class=\"n\">").append(Text.bytes(m.generationOverhead()))
                    .append("</td><td class=\"n\">").append(Text.bytes(m.runtimeReserve()))
                    .append("</td><td class=\"n\">").append(count)
                    .append("</td><td>").append(Text.html(m.optimality().map(o -> o.solver().id()).orElse(plan.solver().id())))
                    .append("</td><td>").append(Text.html(m.optimality().map(o -> o.describe(m.highWater())).orElse("-")))
                    .append("</td></tr>\n");
        }
        sb.append("</tbody></table>\n");
    }

    /** The traffic cost against the baselines and the bound, then one row per buffer that had candidates. */
    private static void choices(StringBuilder sb, Plan plan, Assignment a) {
        long pinned = a.pinnedCost();
        sb.append("<section class=\"choices\" id=\"choices\"><h2>Spaces chosen</h2>\n<p class=\"metrics\">traffic cost ")
                .append("of the buffers with candidate spaces: <b>").append(a.cost() - pinned).append("</b>, lower bound ")
                .append(a.lowerBound() - pinned).append(" (").append(Text.html(a.proof().id())).append(")");
        for (Assignment.Baseline b : a.baselines()) {
            sb.append("; ").append(Text.html(b.policy())).append(' ')
                    .append(b.cost().isPresent() ? Long.toString(b.cost().getAsLong() - pinned) : "does not fit");
        }
        sb.append("</p>\n<table class=\"summary\"><thead><tr><th>buffer</th><th>requested</th><th>live</th>")
                .append("<th>space</th><th>cost</th><th>first choice</th><th>why not</th><th>step</th>")
                .append("<th>held there</th><th>by</th></tr></thead><tbody>\n");
        for (Assignment.Choice c : a.choices()) {
            Optional<PlannedBuffer> pb = plan.buffer(c.buffer());
            sb.append("<tr><td>").append(Text.html(c.buffer())).append("</td><td class=\"n\">")
                    .append(pb.map(b -> Text.bytes(b.requested())).orElse("")).append("</td><td>")
                    .append(pb.map(b -> Text.html(b.live().toString())).orElse("")).append("</td><td>")
                    .append(Text.html(c.space())).append("</td><td class=\"n\">").append(c.cost()).append("</td>");
            if (c.why().isPresent()) {
                Assignment.Why w = c.why().get();
                sb.append("<td>").append(Text.html(w.space())).append("</td><td>").append(Text.html(w.reason().id()))
                        .append("</td><td class=\"n\">").append(w.step()).append("</td><td class=\"n\">")
                        .append(Text.bytes(w.liveBytes())).append(" of ").append(Text.bytes(w.usable()))
                        .append("</td><td>").append(Text.html(String.join(", ", w.holders()))).append("</td>");
            } else {
                sb.append("<td>").append(Text.html(c.space())).append("</td><td></td><td></td><td></td><td></td>");
            }
            sb.append("</tr>\n");
        }
        sb.append("</tbody></table>\n</section>\n");
    }

    /** A version 4 plan's operators, one row per step, and the buffers each writes over one of its inputs. */
    private static void order(StringBuilder sb, Plan plan, List<Operator> order) {
        long shared = plan.buffers().stream().filter(b -> b.sharesWith().isPresent()).count();
        sb.append("<section class=\"choices\" id=\"order\"><h2>Operator order</h2>\n<p class=\"metrics\">")
                .append(order.size()).append(order.size() == 1 ? " operator, " : " operators, ").append(shared)
                .append(shared == 1 ? " buffer" : " buffers").append(" written over an input (same offset)</p>\n")
                .append("<table class=\"summary\"><thead><tr><th>step</th><th>operator</th><th>reads</th><th>writes</th>")
                .append("<th>written over</th></tr></thead><tbody>\n");
        for (int step = 0; step < order.size(); step++) {
            Operator op = order.get(step);
            List<String> over = new ArrayList<>();
            for (String w : op.writes()) {
                plan.buffer(w).flatMap(PlannedBuffer::sharesWith).ifPresent(in -> over.add(w + " over " + in));
            }
            sb.append("<tr><td class=\"n\">").append(step).append("</td><td>").append(Text.html(op.name()))
                    .append("</td><td>").append(Text.html(String.join(", ", op.reads()))).append("</td><td>")
                    .append(Text.html(String.join(", ", op.writes()))).append("</td><td>")
                    .append(Text.html(String.join(", ", over))).append("</td></tr>\n");
        }
        sb.append("</tbody></table>\n</section>\n");
    }

    private static void legend(StringBuilder sb) {
        sb.append("<ul class=\"legend\">");
        for (Origin o : Origin.values()) {
            sb.append("<li><svg width=\"18\" height=\"12\"><rect class=\"sw o-").append(o.id())
                    .append("\" width=\"18\" height=\"12\"/></svg>").append(o.id()).append("</li>");
        }
        sb.append("<li><svg width=\"24\" height=\"12\"><line class=\"high-water\" x1=\"0\" y1=\"6\" x2=\"24\" y2=\"6\"/>")
                .append("</svg>high-water</li>")
                .append("<li><svg width=\"24\" height=\"12\"><line class=\"lower-bound\" x1=\"0\" y1=\"6\" x2=\"24\" y2=\"6\"/>")
                .append("</svg>peak live = lower bound</li>")
                .append("<li><svg width=\"24\" height=\"12\"><line class=\"capacity\" x1=\"0\" y1=\"6\" x2=\"24\" y2=\"6\"/>")
                .append("</svg>capacity</li>")
                .append("<li><svg width=\"24\" height=\"12\"><line class=\"format-limit\" x1=\"0\" y1=\"6\" x2=\"24\" y2=\"6\"/>")
                .append("</svg>format limit</li>")
                .append("<li><svg width=\"18\" height=\"12\"><rect class=\"peak-step\" width=\"18\" height=\"12\"/></svg>")
                .append("peak-live step</li></ul>\n");
    }

    /** A horizontal line at an address, with its label at the right of the plot. */
    private record Mark(String css, long address, String label) {
    }

    private static void space(StringBuilder sb, Plan plan, String name, SpaceMetrics m, long steps) {
        Space space = plan.target().spaces().get(name);
        List<Integer> drawn = new ArrayList<>();
        int zero = 0;
        for (int i = 0; i < plan.buffers().size(); i++) {
            PlannedBuffer b = plan.buffers().get(i);
            if (b.space().equals(name)) {
                if (b.reserved() > 0) {
                    drawn.add(i);
                } else {
                    zero++;
                }
            }
        }
        String id = Text.html(name);
        sb.append("<section class=\"space\" id=\"space-").append(id).append("\">\n<h2>space ").append(id)
                .append(" <small>").append(Text.html(m.kind()));
        if (space.base() != 0) {
            sb.append(", base ").append(Text.hex(space.base()));
        }
        sb.append(", ").append(Text.html(space.format().describe())).append("</small></h2>\n");
        if (drawn.isEmpty()) {
            sb.append("<p class=\"empty\">No reservations in this space")
                    .append(zero > 0 ? " with bytes (" + zero + " of zero bytes)" : "").append(".</p>\n</section>\n");
            return;
        }
        long formatLimit = formatLimit(space);
        List<Long> limits = new ArrayList<>();
        limits.add(formatLimit);
        m.capacity().ifPresent(limits::add);
        long usable = m.capacity().isPresent() ? m.capacity().getAsLong() - m.runtimeReserve() : -1;
        if (usable >= 0 && m.runtimeReserve() > 0) {
            limits.add(usable);
        }
        ChartScale sc = ChartScale.of(steps, m.highWater(), limits.stream().mapToLong(Long::longValue).toArray());
        int peakStep = m.peakStep();

        List<Mark> marks = new ArrayList<>();
        marks.add(new Mark("high-water", m.highWater(), "high-water " + Text.size(m.highWater())));
        marks.add(new Mark("lower-bound", m.peakLive(), "peak live (lower bound) " + Text.size(m.peakLive())));
        if (m.capacity().isPresent()) {
            marks.add(new Mark("capacity", m.capacity().getAsLong(), "capacity " + Text.size(m.capacity().getAsLong())));
            if (m.runtimeReserve() > 0) {
                marks.add(new Mark("usable", usable, "capacity − runtime reserve " + Text.size(usable)));
            }
        }
        marks.add(new Mark("format-limit", formatLimit, "format " + space.format().name() + " limit (max "
                + Text.hex(space.format().maxAddress()) + ", " + space.format().end().id() + " end)"));

        sb.append("<p class=\"metrics\">high-water <b>").append(Text.bytes(m.highWater()))
                .append("</b>, peak live <b>").append(Text.bytes(m.peakLive())).append("</b> at step <b>")
                .append(peakStep).append("</b>, efficiency ")
                .append(String.format(Locale.ROOT, "%.1f%%", 100 * m.efficiency())).append(", ")
                .append(drawn.size()).append(drawn.size() == 1 ? " reservation drawn" : " reservations drawn");
        if (zero > 0) {
            sb.append(" (").append(zero).append(" of zero bytes not drawn)");
        }
        List<String> offChart = new ArrayList<>();
        for (Mark k : marks) {
            if (!sc.inView(k.address())) {
                offChart.add(k.label());
            }
        }
        if (!offChart.isEmpty()) {
            sb.append(". Above the chart: ").append(Text.html(String.join("; ", offChart)));
        }
        sb.append(".</p>\n<p class=\"zoom\">zoom: steps <button type=\"button\" data-zoom=\"x2\" title=\"stretch the steps\">+"
                + "</button><button type=\"button\" data-zoom=\"x0.5\" title=\"shrink the steps\">−</button> addresses "
                + "<button type=\"button\" data-zoom=\"y2\" title=\"stretch the addresses\">+</button><button type=\"button\" "
                + "data-zoom=\"y0.5\" title=\"shrink the addresses\">−</button> <button type=\"button\" data-zoom=\"reset\">"
                + "reset</button> <span class=\"zoom-factor\">1 × 1</span></p>\n<div class=\"scroll\">\n");

        double w = sc.svgWidth();
        double h = sc.svgHeight();
        sb.append("<svg class=\"chart\" data-space=\"").append(id)
                .append("\" width=\"").append(Text.px(w)).append("\" height=\"").append(Text.px(h))
                .append("\" viewBox=\"0 0 ").append(Text.px(w)).append(' ').append(Text.px(h))
                .append("\" data-plot-left=\"").append(Text.px(ChartScale.PLOT_LEFT))
                .append("\" data-plot-top=\"").append(Text.px(ChartScale.PLOT_TOP))
                .append("\" data-plot-width=\"").append(Text.px(sc.plotWidth()))
                .append("\" data-plot-height=\"").append(Text.px(ChartScale.PLOT_HEIGHT))
                .append("\" data-steps=\"").append(steps).append("\" data-address-top=\"").append(sc.addressTop())
                .append("\" data-tick=\"").append(sc.tick()).append("\" role=\"img\" aria-label=\"space ").append(id)
                .append(": address over steps\">\n");
        axes(sb, sc, space);
        double colX = sc.x(peakStep);
        double colW = Math.max(2, sc.column());
        sb.append("<rect class=\"peak-step\" data-step=\"").append(peakStep).append("\" x=\"").append(Text.px(colX))
                .append("\" y=\"").append(Text.px(ChartScale.PLOT_TOP)).append("\" width=\"").append(Text.px(colW))
                .append("\" height=\"").append(Text.px(ChartScale.PLOT_HEIGHT)).append("\"/>\n");
        // the label's ▼ stands over the column; near an edge the text runs inwards from it
        double mid = colX + colW / 2;
        String peakLabel = "peak live, step " + peakStep;
        String anchor = mid < ChartScale.PLOT_LEFT + 70 ? "start" : mid > ChartScale.PLOT_LEFT + sc.plotWidth() - 70
                ? "end" : "middle";
        sb.append("<text class=\"peak-label ").append(anchor).append("\" x=\"")
                .append(Text.px(anchor.equals("start") ? mid - 5 : anchor.equals("end") ? mid + 5 : mid))
                .append("\" y=\"").append(Text.px(ChartScale.PLOT_TOP - 8)).append("\">")
                .append(anchor.equals("end") ? peakLabel + " ▼" : "▼ " + peakLabel).append("</text>\n");
        sb.append("<g class=\"rects\">");
        for (int k = 0; k < drawn.size(); k++) {
            int i = drawn.get(k);
            PlannedBuffer b = plan.buffers().get(i);
            ChartScale.Box box = sc.box(b);
            sb.append("<rect class=\"r o-").append(b.origin().id());
            if (b.origin() == Origin.TENSOR || b.origin() == Origin.TILE) {
                sb.append(" s").append(k % 4);
            }
            sb.append("\" data-i=\"").append(i).append("\" x=\"").append(Text.px(box.x())).append("\" y=\"")
                    .append(Text.px(box.y())).append("\" width=\"").append(Text.px(box.width())).append("\" height=\"")
                    .append(Text.px(box.height())).append("\"/>\n");
        }
        sb.append("</g>\n<g class=\"names\">");
        for (int i : drawn) {
            PlannedBuffer b = plan.buffers().get(i);
            ChartScale.Box box = sc.box(b);
            String label = fit(b.name(), box.width(), box.height());
            if (!label.isEmpty()) {
                sb.append("<text class=\"name\" data-i=\"").append(i).append("\" x=\"").append(Text.px(box.x() + 3))
                        .append("\" y=\"").append(Text.px(box.y() + 11)).append("\">").append(Text.html(label))
                        .append("</text>\n");
            }
        }
        sb.append("</g>\n");
        lines(sb, sc, marks);
        sb.append("</svg>\n</div>\n</section>\n");
    }

    /** Gridlines, tick labels (size and hex offset) and the axis titles. */
    private static void axes(StringBuilder sb, ChartScale sc, Space space) {
        double left = ChartScale.PLOT_LEFT;
        double right = left + sc.plotWidth();
        double top = ChartScale.PLOT_TOP;
        double bottom = top + ChartScale.PLOT_HEIGHT;
        sb.append("<rect class=\"plot\" x=\"").append(Text.px(left)).append("\" y=\"").append(Text.px(top))
                .append("\" width=\"").append(Text.px(sc.plotWidth())).append("\" height=\"")
                .append(Text.px(ChartScale.PLOT_HEIGHT)).append("\"/>\n<g class=\"axis address\">");
        for (long a = 0; a <= sc.addressTop(); a = Checked.saturatingAdd(a, sc.tick())) {
            double y = sc.y(a);
            sb.append("<line class=\"grid\" x1=\"").append(Text.px(left)).append("\" y1=\"").append(Text.px(y))
                    .append("\" x2=\"").append(Text.px(right)).append("\" y2=\"").append(Text.px(y)).append("\"/>")
                    .append("<text class=\"tick\" data-ay=\"").append(Text.px(y)).append("\" x=\"").append(Text.px(left - 6))
                    .append("\" y=\"").append(Text.px(y - 1))
                    .append("\">").append(Text.size(a)).append("</text>")
                    .append("<text class=\"tick hex\" data-ay=\"").append(Text.px(y)).append("\" x=\"")
                    .append(Text.px(left - 6)).append("\" y=\"")
                    .append(Text.px(y + 10)).append("\">").append(Text.hex(a)).append("</text>\n");
            if (a == Checked.MAX) {
                break;
            }
        }
        sb.append("</g>\n<g class=\"axis steps\">");
        long every = stepTick(sc.steps(), sc.plotWidth());
        for (long s = 0; s < sc.steps(); s += every) {
            double x = sc.x(s) + sc.column() / 2;
            sb.append("<line class=\"tickmark\" x1=\"").append(Text.px(sc.x(s))).append("\" y1=\"").append(Text.px(bottom))
                    .append("\" x2=\"").append(Text.px(sc.x(s))).append("\" y2=\"").append(Text.px(bottom + 4)).append("\"/>")
                    .append("<text class=\"step\" x=\"").append(Text.px(x)).append("\" y=\"").append(Text.px(bottom + 16))
                    .append("\">").append(s).append("</text>\n");
        }
        sb.append("</g>\n<text class=\"axis-title\" x=\"").append(Text.px(left + sc.plotWidth() / 2)).append("\" y=\"")
                .append(Text.px(bottom + 38)).append("\">step →</text>\n")
                .append("<text class=\"axis-title\" transform=\"translate(14 ").append(Text.px(top + ChartScale.PLOT_HEIGHT / 2))
                .append(") rotate(-90)\">").append(space.base() != 0 ? "offset from base ↑" : "address ↑").append("</text>\n");
    }

    /** Tick spacing on the step axis: 1, 2, 5, 10, 20, 50 ... with at least 36 px between labels. */
    static long stepTick(long steps, double plotWidth) {
        long every = 1;
        int k = 0;
        while (every * plotWidth / steps < 36) {
            every = switch (k++ % 3) {
                case 0 -> every * 2;
                case 1 -> every / 2 * 5;
                default -> every * 2;
            };
        }
        return every;
    }

    /** The limit lines in view, and their labels at the right of the plot, pushed apart so none overlap. */
    private static void lines(StringBuilder sb, ChartScale sc, List<Mark> marks) {
        List<Mark> shown = new ArrayList<>(marks.stream().filter(k -> sc.inView(k.address())).toList());
        shown.sort(Comparator.comparingLong(Mark::address).reversed());
        double left = ChartScale.PLOT_LEFT;
        double right = left + sc.plotWidth();
        double lastY = Double.NEGATIVE_INFINITY;
        sb.append("<g class=\"marks\">");
        for (Mark k : shown) {
            double y = sc.y(k.address());
            double ly = Math.max(y + 4, lastY + LABEL_GAP);
            lastY = ly;
            sb.append("<line class=\"").append(k.css()).append("\" data-address=\"").append(k.address()).append("\" x1=\"")
                    .append(Text.px(left)).append("\" y1=\"").append(Text.px(y)).append("\" x2=\"").append(Text.px(right + 4))
                    .append("\" y2=\"").append(Text.px(y)).append("\"/>")
                    .append("<text class=\"mark ").append(k.css()).append("\" data-ay=\"").append(Text.px(y))
                    .append("\" x=\"").append(Text.px(right + 8))
                    .append("\" y=\"").append(Text.px(ly)).append("\">").append(Text.html(k.label())).append("</text>\n");
        }
        sb.append("</g>\n");
    }

    /** The name as it fits in a box (10 px font, about 6 px a character), or empty when too little of it fits. */
    static String fit(String name, double width, double height) {
        if (height < 13 || width < 24) {
            return "";
        }
        int chars = (int) ((width - 5) / 6.2);
        if (name.codePointCount(0, name.length()) <= chars) {
            return name;
        }
        if (chars < 4) {
            return "";
        }
        return name.substring(0, name.offsetByCodePoints(0, chars - 1)) + "…";
    }

    /**
     * The largest exclusive end offset the space's format allows: {@code maxAddress - base}
     * for an exclusive end, one more for a last-byte end; 0 when the base is past the format.
     */
    static long formatLimit(Space s) {
        long room = s.format().maxAddress() - s.base();
        if (room < 0) {
            return 0;
        }
        return s.format().end() == EndConvention.EXCLUSIVE ? room : Checked.saturatingAdd(room, 1);
    }

    /** The reservations and spaces as JSON for the script; 64-bit numbers as strings, so nothing is rounded. */
    private static void data(StringBuilder sb, Plan plan) {
        sb.append("<script type=\"application/json\" id=\"berth-data\">{\"spaces\":{");
        boolean first = true;
        for (Map.Entry<String, SpaceMetrics> e : plan.spaces().entrySet()) {
            Space s = plan.target().spaces().get(e.getKey());
            sb.append(first ? "" : ",").append(Text.json(e.getKey())).append(":{\"kind\":").append(Text.json(s.kind()))
                    .append(",\"base\":\"").append(s.base()).append("\"}");
            first = false;
        }
        sb.append("},\"b\":[\n");
        for (int i = 0; i < plan.buffers().size(); i++) {
            PlannedBuffer b = plan.buffers().get(i);
            sb.append(i == 0 ? "" : ",\n").append('[').append(Text.json(b.name())).append(',').append(Text.json(b.space()))
                    .append(',').append(Text.json(b.origin().id())).append(',')
                    .append(b.of().isPresent() ? Text.json(b.of().get()) : "null")
                    .append(",\"").append(b.offset()).append("\",\"").append(b.requested()).append("\",\"")
                    .append(b.reserved()).append("\",\"").append(b.alignment()).append("\",").append(b.live().first())
                    .append(',').append(b.live().last()).append(']');
        }
        sb.append("]}</script>\n");
    }

    private static String resource(String name) {
        try (InputStream in = HtmlReport.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name + " beside " + HtmlReport.class.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
