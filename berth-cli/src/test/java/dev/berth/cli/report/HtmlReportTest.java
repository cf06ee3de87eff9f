package dev.berth.cli.report;

import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.io.TargetJson;
import dev.berth.plan.Planner;
import dev.berth.solve.SolverChoice;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.FixedRegion;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Origin;
import dev.berth.workload.Workload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class HtmlReportTest {
    private static final Pattern SVG = Pattern.compile("<svg class=\"chart\" data-space=\"([^\"]+)\" width=\"[^\"]+\" "
            + "height=\"[^\"]+\" viewBox=\"[^\"]+\" data-plot-left=\"([\\d.]+)\" data-plot-top=\"([\\d.]+)\" "
            + "data-plot-width=\"([\\d.]+)\" data-plot-height=\"([\\d.]+)\" data-steps=\"(\\d+)\" "
            + "data-address-top=\"(\\d+)\" data-tick=\"(\\d+)\"");
    private static final Pattern RECT = Pattern.compile("<rect class=\"r o-([a-z-]+)(?: s\\d)?\" data-i=\"(\\d+)\" "
            + "x=\"([\\d.]+)\" y=\"([\\d.]+)\" width=\"([\\d.]+)\" height=\"([\\d.]+)\"/>");

    /** One chart's scale as the SVG declares it. */
    record Declared(double left, double top, double width, double height, long steps, long addressTop) {
    }

    /** The rectangle the documentation says a reservation gets (independent of the renderer's code). */
    static double[] expected(Declared d, PlannedBuffer b) {
        double col = d.width() / d.steps();
        double w = Math.max(1, ((long) b.live().last() + 1 - b.live().first()) * col);
        double h = Math.max(1, (double) b.reserved() * d.height() / d.addressTop());
        double y = d.top() + d.height() * (1 - (double) b.offset() / d.addressTop()) - h;
        return new double[]{d.left() + b.live().first() * col, y, w, h};
    }

    static Map<String, Declared> charts(String html) {
        Map<String, Declared> m = new HashMap<>();
        Matcher s = SVG.matcher(html);
        while (s.find()) {
            m.put(s.group(1), new Declared(Double.parseDouble(s.group(2)), Double.parseDouble(s.group(3)),
                    Double.parseDouble(s.group(4)), Double.parseDouble(s.group(5)), Long.parseLong(s.group(6)),
                    Long.parseLong(s.group(7))));
        }
        return m;
    }

    private static void assertRectanglesMatchThePlan(Plan plan, String html) {
        Map<String, Declared> charts = charts(html);
        Matcher r = RECT.matcher(html);
        Set<Integer> seen = new HashSet<>();
        while (r.find()) {
            int i = Integer.parseInt(r.group(2));
            PlannedBuffer b = plan.buffers().get(i);
            assertThat(seen.add(i)).as("one rectangle per reservation: %s", b.name()).isTrue();
            assertThat(r.group(1)).as("origin class of %s", b.name()).isEqualTo(b.origin().id());
            double[] e = expected(charts.get(b.space()), b);
            assertThat(Double.parseDouble(r.group(3))).as("x of %s", b.name()).isCloseTo(e[0], within(0.006));
            assertThat(Double.parseDouble(r.group(4))).as("y of %s", b.name()).isCloseTo(e[1], within(0.006));
            assertThat(Double.parseDouble(r.group(5))).as("width of %s", b.name()).isCloseTo(e[2], within(0.006));
            assertThat(Double.parseDouble(r.group(6))).as("height of %s", b.name()).isCloseTo(e[3], within(0.006));
        }
        for (int i = 0; i < plan.buffers().size(); i++) {
            PlannedBuffer b = plan.buffers().get(i);
            assertThat(seen.contains(i)).as("drawn iff it reserves bytes: %s", b.name()).isEqualTo(b.reserved() > 0);
        }
    }

    @Test
    void everyReservationWithBytesIsOneRectangleOfItsOriginAtTheDocumentedScale() {
        for (Plan p : List.of(ReportPlans.small(), ReportPlans.allOrigins(), teachingPlan())) {
            assertRectanglesMatchThePlan(p, HtmlReport.render(p));
        }
    }

    @Test
    void theAddressAxisFollowsTheDocumentedRule() {
        Plan p = ReportPlans.small();
        Map<String, Declared> charts = charts(HtmlReport.render(p));
        // global: high-water 9216 (best fit reaches the peak of step 1: abi.in 1 KiB + input 4 KiB + conv1 3 KiB
        // + skip 1 KiB); 9216 + 460 = 9676, tick = highestOneBit(9676 / 4 = 2419) = 2048, top = 5 * 2048
        assertThat(p.spaces().get("global").highWater()).isEqualTo(9216);
        assertThat(charts.get("global").addressTop()).isEqualTo(10240);
        // sram: high-water 151552, capacity 262144 <= 4 x 151552 so in view: 262144 + 13107 = 275251,
        // tick = highestOneBit(68812) = 65536, top = 5 * 65536
        assertThat(p.spaces().get("sram").highWater()).isEqualTo(151552);
        assertThat(charts.get("sram").addressTop()).isEqualTo(327680);
        assertThat(charts.get("global").steps()).isEqualTo(6);
        assertThat(charts).doesNotContainKey("weights");
    }

    @Test
    void theOriginsAreDrawnDifferently() {
        String html = HtmlReport.render(ReportPlans.allOrigins());
        Set<String> fills = new HashSet<>();
        for (Origin o : Origin.values()) {
            Matcher m = Pattern.compile("rect\\.o-" + o.id() + "[^{]*\\{ fill: ([^;]+);").matcher(html);
            assertThat(m.find()).as("a fill for %s", o.id()).isTrue();
            fills.add(m.group(1));
        }
        assertThat(fills).hasSize(Origin.values().length);
        for (Origin o : Origin.values()) {
            assertThat(html).contains("<rect class=\"r o-" + o.id());
        }
    }

    @Test
    void zeroByteReservationsAreCountedNotDrawn() {
        String html = HtmlReport.render(ReportPlans.allOrigins());
        assertThat(html).contains("(1 of zero bytes not drawn)");
        assertThat(html).doesNotContain("data-i=\"2\" x=");
    }

    @Test
    void namesAreEscapedInTextAttributesAndScript() {
        String html = HtmlReport.render(ReportPlans.small());
        assertThat(html.split("</script>", -1)).hasSize(3); // only the two script elements end
        assertThat(html).doesNotContain("<b>&");
        assertThat(html).contains("\"\\u003c/script\\u003e\\u003cb\\u003e\\u0026\\\"x'\\u2028\"");
        assertThat(html).contains("&lt;/script&gt;&lt;b&gt;&amp;&quot;x&#39;");
    }

    @Test
    void controlCharactersInTextAreWrittenAsTheirCodes() {
        assertThat(Text.html("a\u0000b\u001bc\nd")).isEqualTo("a\\u0000b\\u001bc\nd");
        assertThat(Text.html("<\u007f>")).isEqualTo("&lt;\\u007f&gt;");
    }

    @Test
    void theReportIsSelfContained() {
        String html = HtmlReport.render(ReportPlans.small());
        assertThat(html).doesNotContainIgnoringCase("http").doesNotContain(" src=").doesNotContain("@import")
                .doesNotContain("<link").doesNotContain("<iframe");
        assertThat(html.replace("url(#hatch)", "")).doesNotContain("url(");
        assertThat(html).contains("<style>").contains("<script>");
    }

    @Test
    void linesAreDrawnOnlyWhenInView() {
        String small = HtmlReport.render(ReportPlans.small());
        String global = section(small, "global");
        String sram = section(small, "sram");
        assertThat(global).contains("<line class=\"high-water\" data-address=\"9216\"")
                .contains("<line class=\"lower-bound\" data-address=\"9216\"")
                .doesNotContain("<line class=\"capacity\"").doesNotContain("<line class=\"format-limit\"")
                .contains("Above the chart: format dma32 limit");
        assertThat(sram).contains("<line class=\"capacity\" data-address=\"262144\"")
                .doesNotContain("<line class=\"format-limit\"");
        String teach = HtmlReport.render(teachingPlan());
        // teaching: format teach (maxAddress 29, exclusive end) lets reservations end at 29; local capacity 55
        assertThat(section(teach, "global")).contains("<line class=\"format-limit\" data-address=\"29\"");
        // local: capacity 55 is in view (<= 4 x high-water 40); format wide (maxAddress 1023) is not
        assertThat(section(teach, "local")).contains("<line class=\"capacity\" data-address=\"55\"")
                .doesNotContain("<line class=\"format-limit\"").contains("Above the chart: format wide limit");
    }

    @Test
    void thePeakLiveStepIsMarked() {
        String html = HtmlReport.render(ReportPlans.small());
        // global at step 1: abi.in 1024 + input 4096 + conv1 3072 + skip 1024 = 9216, the most of any step
        assertThat(section(html, "global")).contains("<rect class=\"peak-step\" data-step=\"1\"")
                .contains("peak live, step 1");
        // sram at step 2: acc 49152 + the other 102400
        assertThat(section(html, "sram")).contains("<rect class=\"peak-step\" data-step=\"2\"");
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void theMarkedStepIsThePlannersFirstPeakLiveStep(long seed) {
        Plan p = ReportPlans.many(60, 25, 6, seed);
        SpaceMetrics m = p.spaces().get("global");
        int step = m.peakStep();
        assertThat(section(HtmlReport.render(p), "global")).contains("<rect class=\"peak-step\" data-step=\"" + step + "\"");
        for (int s = 0; s <= step; s++) {
            long live = 0;
            for (PlannedBuffer b : p.buffers()) {
                if (b.space().equals("global") && b.live().first() <= s && s <= b.live().last()) {
                    live += b.reserved();
                }
            }
            if (s < step) {
                assertThat(live).as("bytes live at step %d, before the marked one", s).isLessThan(m.peakLive());
            } else {
                assertThat(live).as("bytes live at the marked step").isEqualTo(m.peakLive());
            }
        }
    }

    @Test
    void tenThousandReservationsMakeAFileOfAFewMegabytes() {
        Plan p = ReportPlans.many(10_000, 2_000, 20, 42);
        byte[] html = HtmlReport.toBytes(p);
        assertThat(html.length).isLessThan(4 * 1024 * 1024);
        String s = new String(html, StandardCharsets.UTF_8);
        Matcher r = RECT.matcher(s);
        int n = 0;
        while (r.find()) {
            n++;
        }
        assertThat(n).isEqualTo(p.buffers().stream().filter(b -> b.reserved() > 0).count()).isGreaterThanOrEqualTo(10_000);
        assertRectanglesMatchThePlan(p, s);
    }

    @Test
    void nameLabelsFitTheirBoxes() {
        assertThat(HtmlReport.fit("conv1", 100, 20)).isEqualTo("conv1");
        assertThat(HtmlReport.fit("conv1", 100, 12)).isEmpty();
        assertThat(HtmlReport.fit("/model.22/cv3/Conv_output_0", 60, 20)).isEqualTo("/model.…").hasSize(8);
        assertThat(HtmlReport.fit("abcdefgh", 24, 20)).isEmpty();
    }

    @Test
    void stepTicksAreOneTwoFiveAndAtLeast36PixelsApart() {
        assertThat(HtmlReport.stepTick(6, 640)).isEqualTo(1);
        assertThat(HtmlReport.stepTick(30, 1100)).isEqualTo(1);
        assertThat(HtmlReport.stepTick(31, 1100)).isEqualTo(2);
        assertThat(HtmlReport.stepTick(2000, 1100)).isEqualTo(100);
        assertThat(HtmlReport.stepTick(Integer.MAX_VALUE + 1L, 1100)).isEqualTo(100_000_000L);
    }

    @Test
    void pixelsHaveAtMostTwoDecimals() {
        assertThat(Text.px(40)).isEqualTo("40");
        assertThat(Text.px(12.5)).isEqualTo("12.5");
        assertThat(Text.px(1.0 / 3)).isEqualTo("0.33");
        assertThat(Text.px(-0.001)).isEqualTo("0");
        assertThat(Text.size(163840)).isEqualTo("160 KiB");
        assertThat(Text.size(1536L * 1024)).isEqualTo("1.50 MiB");
        assertThat(Text.size(57)).isEqualTo("57 B");
    }

    static String section(String html, String space) {
        int from = html.indexOf("<section class=\"space\" id=\"space-" + space + "\">");
        assertThat(from).as("section of %s", space).isGreaterThanOrEqualTo(0);
        return html.substring(from, html.indexOf("</section>", from));
    }

    /** On the teaching target: a 20-byte buffer in global (format limit 29) and 30 + 21 bytes in local (capacity 55). */
    static Plan teachingPlan() {
        Target TEACH = TargetJson.load("teaching");
        Workload w = new Workload("teach", List.of(
                new BufferSpec("g", 20, TEACH.space("global", "test"), 1, new Lifetime(0, 1), Optional.empty()),
                new BufferSpec("t1", 21, TEACH.space("local", "test"), 10, new Lifetime(1, 3), Optional.empty())),
                List.of(new FixedRegion("f", TEACH.space("local", "test"), 0, 10, new Lifetime(0, 3))));
        Plan p = Planner.plan(TEACH, w, new Planner.Options(SolverChoice.BEST_FIT, 10)).plan();
        SpaceMetrics local = p.spaces().get("local");
        assertThat(local.highWater()).isEqualTo(40);
        return p;
    }
}
