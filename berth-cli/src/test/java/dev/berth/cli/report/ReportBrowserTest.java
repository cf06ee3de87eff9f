package dev.berth.cli.report;

import dev.berth.TestData;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.io.TargetJson;
import dev.berth.io.TflmScratchJson;
import dev.berth.io.WorkloadJson;
import dev.berth.io.tflite.TfliteImport;
import dev.berth.io.tflite.TflmGreedyPlanner;
import dev.berth.io.tflite.TflmHeadPlan;
import dev.berth.plan.Planner;
import dev.berth.solve.SolverChoice;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Opens reports in headless Chromium and checks what a person would see: the rectangles and
 * labels where the plan and the documented scale ({@link ChartScale}) put them, details on
 * click, a tooltip on hover, find by name, and a 10^4-reservation report that opens and
 * answers. Screenshots go to {@code target/report-browser/}.
 */
class ReportBrowserTest {
    private static final Path DIR = Path.of("target", "report-browser");
    private static Optional<WebDriver> browser = Optional.empty();
    private static WebDriver driver;

    @BeforeAll
    static void startBrowser() {
        browser = HeadlessChromium.start(DIR);
    }

    @BeforeEach
    void needsTheBrowser() {
        driver = HeadlessChromium.require(browser);
    }

    @AfterAll
    static void stopBrowser() {
        browser.ifPresent(WebDriver::quit);
    }

    private static void open(Plan plan, String file) throws IOException {
        Files.createDirectories(DIR);
        Path html = DIR.resolve(file).toAbsolutePath();
        Files.write(html, HtmlReport.toBytes(plan));
        driver.get(html.toUri().toString());
        assertThat(driver.getTitle()).isEqualTo("Berth plan: " + plan.workload() + " on " + plan.target().name());
    }

    private static double num(WebElement e, String attribute) {
        return Double.parseDouble(e.getAttribute(attribute));
    }

    private static double dbl(Map<String, Object> m, String key) {
        Object v = m.get(key);
        return v instanceof Number n ? n.doubleValue() : Double.parseDouble((String) v);
    }

    private static WebElement chart(String space) {
        return driver.findElement(By.cssSelector("svg.chart[data-space='" + space + "']"));
    }

    private static WebElement rect(int i) {
        return driver.findElement(By.cssSelector("rect.r[data-i='" + i + "']"));
    }

    private static int index(Plan plan, String name) {
        return IntStream.range(0, plan.buffers().size()).filter(i -> plan.buffers().get(i).name().equals(name))
                .findFirst().orElseThrow();
    }

    private static Object js(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    private static void screenshot(String name, boolean wholePage) throws IOException {
        if (wholePage) {
            long h = ((Number) js("return document.documentElement.scrollHeight")).longValue();
            driver.manage().window().setSize(new Dimension(1600, (int) Math.min(4000, h + 20)));
        }
        Path png = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(png, DIR.resolve(name), StandardCopyOption.REPLACE_EXISTING);
        assertThat(Files.size(DIR.resolve(name))).isGreaterThan(10_000);
        driver.manage().window().setSize(new Dimension(1600, 1200));
    }

    @Test
    void rectanglesAndLabelsAreWhereThePlanPutsThem() throws IOException {
        Plan plan = ReportPlans.small();
        open(plan, "small.html");
        // one round trip: every rectangle's attributes, its chart's scale and its laid-out size
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> rects = (List<Map<String, Object>>) js("""
                return Array.from(document.querySelectorAll('rect.r[data-i]')).map(function (r) {
                  var svg = r.closest('svg'), box = r.getBoundingClientRect(), m = {};
                  ['data-i', 'class', 'x', 'y', 'width', 'height'].forEach(function (n) { m[n] = r.getAttribute(n); });
                  ['space', 'plotLeft', 'plotTop', 'plotWidth', 'plotHeight', 'steps', 'addressTop']
                      .forEach(function (n) { m[n] = svg.dataset[n]; });
                  m.boxWidth = box.width; m.boxHeight = box.height;
                  return m;
                });""");
        int drawn = 0;
        for (Map<String, Object> r : rects) {
            PlannedBuffer b = plan.buffers().get(Integer.parseInt((String) r.get("data-i")));
            double left = dbl(r, "plotLeft");
            double top = dbl(r, "plotTop");
            double width = dbl(r, "plotWidth");
            double height = dbl(r, "plotHeight");
            double steps = dbl(r, "steps");
            double addressTop = dbl(r, "addressTop");
            // the documented scale: steps left to right, offset 0 at the bottom
            double col = width / steps;
            double w = Math.max(1, ((long) b.live().last() + 1 - b.live().first()) * col);
            double h = Math.max(1, b.reserved() * height / addressTop);
            double y = top + height * (1 - b.offset() / addressTop) - h;
            assertThat(r.get("space")).isEqualTo(b.space());
            assertThat((String) r.get("class")).contains("o-" + b.origin().id());
            assertThat(dbl(r, "x")).as("x of %s", b.name()).isCloseTo(left + b.live().first() * col, within(0.006));
            assertThat(dbl(r, "y")).as("y of %s", b.name()).isCloseTo(y, within(0.006));
            assertThat(dbl(r, "width")).as("width of %s", b.name()).isCloseTo(w, within(0.006));
            assertThat(dbl(r, "height")).as("height of %s", b.name()).isCloseTo(h, within(0.006));
            // and the browser really lays it out at that size (CSS pixels, no zoom)
            assertThat(dbl(r, "boxWidth")).as("rendered width of %s", b.name()).isCloseTo(w, within(1.5));
            assertThat(dbl(r, "boxHeight")).as("rendered height of %s", b.name()).isCloseTo(h, within(1.5));
            drawn++;
        }
        assertThat(drawn).isEqualTo(plan.buffers().stream().filter(b -> b.reserved() > 0).count()).isPositive();
        assertThat(driver.findElements(By.cssSelector("rect.r[data-i]"))).hasSize(drawn);

        // labels: names inside their rectangles, the hostile one shown literally
        WebElement input = driver.findElement(By.cssSelector("text.name[data-i='" + index(plan, "input") + "']"));
        assertThat(input.getText()).isEqualTo("input");
        WebElement hostile = driver.findElement(By.cssSelector("text.name[data-i='" + index(plan, ReportPlans.HOSTILE)
                + "']"));
        assertThat(hostile.getAttribute("textContent")).isEqualTo(ReportPlans.HOSTILE);

        // lines: high-water and lower bound where the metrics say; capacity only on sram; peak-live step 1 in global
        for (String space : List.of("global", "sram")) {
            SpaceMetrics m = plan.spaces().get(space);
            WebElement svg = chart(space);
            double top = num(svg, "data-plot-top");
            double height = num(svg, "data-plot-height");
            double addressTop = num(svg, "data-address-top");
            WebElement hw = svg.findElement(By.cssSelector("line.high-water"));
            assertThat(num(hw, "y1")).isCloseTo(top + height * (1 - m.highWater() / addressTop), within(0.006));
            WebElement lb = svg.findElement(By.cssSelector("line.lower-bound"));
            assertThat(num(lb, "y1")).isCloseTo(top + height * (1 - m.peakLive() / addressTop), within(0.006));
            assertThat(svg.findElement(By.cssSelector("text.mark.high-water")).getText()).startsWith("high-water ");
            assertThat(svg.findElement(By.cssSelector("text.mark.lower-bound")).getText())
                    .startsWith("peak live (lower bound) ");
        }
        assertThat(chart("global").findElements(By.cssSelector("line.capacity"))).isEmpty();
        WebElement cap = chart("sram").findElement(By.cssSelector("line.capacity"));
        assertThat(num(cap, "y1")).isCloseTo(34 + 400 * (1 - 262144.0 / 327680), within(0.006));
        assertThat(chart("sram").findElement(By.cssSelector("text.mark.capacity")).getText()).isEqualTo("capacity 256 KiB");
        WebElement peak = chart("global").findElement(By.cssSelector("rect.peak-step"));
        assertThat(peak.getAttribute("data-step")).isEqualTo("1");
        assertThat(num(peak, "x")).isCloseTo(104 + 640.0 / 6, within(0.006));
        assertThat(chart("global").findElement(By.cssSelector("text.peak-label")).getText()).contains("step 1");

        // axis labels: 0 at the bottom, the top of the axis (10 KiB) at the top, in size and in hex
        List<String> ticks = chart("global").findElements(By.cssSelector("text.tick")).stream()
                .map(WebElement::getText).toList();
        assertThat(ticks).contains("0 B", "0x0", "10 KiB", "0x2800");
        assertThat(driver.findElement(By.cssSelector("#space-weights .empty")).getText())
                .isEqualTo("No reservations in this space.");
        screenshot("small.png", true);
    }

    @Test
    void clickingARectangleShowsItsDetailsAndHoveringShowsATip() throws IOException {
        Plan plan = ReportPlans.small();
        open(plan, "small.html");
        int i = index(plan, "conv1");
        PlannedBuffer b = plan.buffers().get(i);
        assertThat(driver.findElements(By.cssSelector("#details dd"))).isEmpty();
        rect(i).click();
        assertThat(driver.findElement(By.cssSelector("#details h3")).getText()).isEqualTo("conv1");
        assertThat(field("offset")).isEqualTo(b.offset() + " (0x" + Long.toHexString(b.offset()).toUpperCase() + ")");
        assertThat(field("requested")).isEqualTo("3072 B (3 KiB)");
        assertThat(field("reserved")).isEqualTo("3072 B (3 KiB)");
        assertThat(field("alignment")).isEqualTo("64");
        assertThat(field("live")).isEqualTo("steps 1–2 (2 steps)");
        assertThat(field("space")).isEqualTo("global (logical)");
        assertThat(field("origin")).isEqualTo("tensor");
        assertThat(field("end")).startsWith((b.offset() + b.reserved()) + " (");
        assertThat(rect(i).getAttribute("class")).contains("sel");

        int j = index(plan, "pool1");
        new Actions(driver).moveToElement(rect(j)).perform();
        WebElement tip = driver.findElement(By.id("tip"));
        assertThat(tip.isDisplayed()).isTrue();
        assertThat(tip.getText()).startsWith("pool1 tensor, offset " + plan.buffers().get(j).offset());
        screenshot("small-clicked.png", false);

        WebElement find = driver.findElement(By.id("find"));
        find.sendKeys("skip");
        assertThat(driver.findElement(By.id("find-count")).getText()).startsWith("1 match");
        assertThat(rect(index(plan, "skip")).getAttribute("class")).contains("hit");
        find.sendKeys(Keys.ENTER);
        assertThat(driver.findElement(By.cssSelector("#details h3")).getText()).isEqualTo("skip");
    }

    /**
     * The README's picture: the report of {@code examples/convnet.json} on npu-ref with one
     * reservation clicked, a whole-page screenshot in {@code target/report-browser/convnet.png}.
     */
    @Test
    void theExampleModelsReportForTheReadme() throws IOException {
        Path workload = TestData.root().resolve("examples/convnet.json");
        Plan plan = Planner.plan(TargetJson.load("npu-ref"), WorkloadJson.read(workload, TargetJson.load("npu-ref")),
                new Planner.Options(SolverChoice.AUTO, 10)).plan();
        open(plan, "convnet.html");
        int i = index(plan, "block2.expand.out");
        rect(i).click();
        assertThat(field("reserved")).startsWith(plan.buffers().get(i).reserved() + " B");
        assertThat(driver.findElements(By.cssSelector("rect.r[data-i]")))
                .hasSize((int) plan.buffers().stream().filter(b -> b.reserved() > 0).count());
        screenshot("convnet.png", true);
    }

    @Test
    void zoomStretchesStepsAndAddressesAndResets() throws IOException {
        Plan plan = ReportPlans.small();
        open(plan, "small.html");
        WebElement svg = chart("global");
        double left = num(svg, "data-plot-left");
        double top = num(svg, "data-plot-top");
        double width = num(svg, "data-plot-width");
        double svgWidth = num(svg, "width");
        double svgHeight = num(svg, "height");
        WebElement conv1 = rect(index(plan, "conv1"));
        double x = num(conv1, "x");
        double y = num(conv1, "y");
        double w = num(conv1, "width");
        double h = num(conv1, "height");
        WebElement zoom = driver.findElement(By.cssSelector("#space-global .zoom"));
        zoom.findElement(By.cssSelector("button[data-zoom='x2']")).click();
        zoom.findElement(By.cssSelector("button[data-zoom='x2']")).click();
        zoom.findElement(By.cssSelector("button[data-zoom='y2']")).click();
        assertThat(zoom.findElement(By.cssSelector(".zoom-factor")).getText()).isEqualTo("4 × 2");
        assertThat(num(conv1, "x")).isCloseTo(left + (x - left) * 4, within(0.01));
        assertThat(num(conv1, "width")).isCloseTo(w * 4, within(0.01));
        assertThat(num(conv1, "y")).isCloseTo(top + (y - top) * 2, within(0.01));
        assertThat(num(conv1, "height")).isCloseTo(h * 2, within(0.01));
        assertThat(num(svg, "width")).isCloseTo(svgWidth + 3 * width, within(0.01));
        assertThat(num(svg, "height")).isCloseTo(svgHeight + 400, within(0.01));
        // the high-water line stays on the top edge of the highest reservation
        WebElement hw = svg.findElement(By.cssSelector("line.high-water"));
        double highest = driver.findElements(By.cssSelector("#space-global rect.r")).stream()
                .mapToDouble(r -> num(r, "y")).min().orElseThrow();
        assertThat(num(hw, "y1")).isCloseTo(highest, within(0.01));
        rect(index(plan, "conv1")).click();
        assertThat(field("offset")).startsWith(plan.buffers().get(index(plan, "conv1")).offset() + " (");
        screenshot("small-zoomed.png", false);
        zoom.findElement(By.cssSelector("button[data-zoom='reset']")).click();
        assertThat(num(conv1, "x")).isEqualTo(x);
        assertThat(num(conv1, "height")).isEqualTo(h);
        assertThat(num(svg, "width")).isEqualTo(svgWidth);
    }

    private static String field(String name) {
        return driver.findElement(By.cssSelector("#details dd[data-field='" + name + "']")).getText();
    }

    @Test
    void tenThousandReservationsOpenAndAnswer() throws IOException {
        Plan plan = ReportPlans.many(10_000, 2_000, 20, 7);
        open(plan, "many.html");
        long expected = plan.buffers().stream().filter(b -> b.reserved() > 0).count();
        assertThat(((Number) js("return document.querySelectorAll('rect.r[data-i]').length")).longValue())
                .isEqualTo(expected).isGreaterThanOrEqualTo(10_000);
        int biggest = IntStream.range(0, plan.buffers().size()).boxed()
                .max(Comparator.comparingLong(i -> plan.buffers().get(i).reserved() * (plan.buffers().get(i).live().last()
                        - plan.buffers().get(i).live().first() + 1L))).orElseThrow();
        rect(biggest).click();
        assertThat(driver.findElement(By.cssSelector("#details h3")).getText())
                .isEqualTo(plan.buffers().get(biggest).name());
        assertThat(field("reserved")).startsWith(plan.buffers().get(biggest).reserved() + " B");
        screenshot("many.png", false);
    }

    /**
     * A TFLite plan with the kernels' scratch buffers (keyword_scrambled_8bit, --tflm-scratch): the
     * report draws every tensor and scratch buffer of TFLM's head where the plan puts it, the scratch
     * buffers where TFLM's greedy places them around the offline tensors.
     */
    @Test
    void aTflitePlanWithScratchBuffersShowsTflmsHead() throws IOException {
        var m = TfliteImport.read(TestData.require("models/tflite/keyword_scrambled_8bit.tflite"),
                TargetJson.load("tflm"), TfliteImport.Options.of().withScratch(
                        TflmScratchJson.read(TestData.require("tflm-scratch/keyword_scrambled_8bit.json"))));
        var planned = Planner.plan(m.target(), m.workload(), Planner.Options.defaults());
        var head = TflmHeadPlan.choose(m, planned, Planner.Options.defaults());
        Plan plan = head.result().plan();
        open(plan, "tflite-scratch.html");
        assertThat(driver.findElements(By.cssSelector("#space-arena rect.r[data-i]"))).hasSize(16 + 14);
        var scratch = TflmGreedyPlanner.ofModel(m.view(), head.offline(), m.scratch());
        for (String name : List.of("scratch0", "scratch13", "t0", "t52")) {
            int i = index(plan, name);
            rect(i).click();
            assertThat(driver.findElement(By.cssSelector("#details h3")).getText()).isEqualTo(name);
            long at = plan.buffers().get(i).offset();
            assertThat(field("offset")).startsWith(at + " (");
            assertThat(field("space")).isEqualTo("arena (logical)");
            if (name.startsWith("scratch")) {
                assertThat(at).isEqualTo(scratch.scratchOffset()[Integer.parseInt(name.substring(7))]);
            } else {
                assertThat(at).isEqualTo(head.offline()[Integer.parseInt(name.substring(1))]);
            }
        }
        screenshot("tflite-scratch.png", false);
    }
}
