package dev.berth.cli;

import dev.berth.text.Visible;
import dev.berth.artifact.Plan;
import dev.berth.cli.report.HtmlReport;
import dev.berth.io.PlanJson;
import dev.berth.verify.PlanValidator;
import dev.berth.verify.Verdict;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code berth report}: the address-by-step picture of a plan as one self-contained HTML file. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Draw a plan as one self-contained HTML file: per space, addresses over steps, each reservation "
                + "a rectangle; hover or click one for its details. No network access is needed to view it."},
        footer = {"", "Examples:",
                "  berth plan examples/convnet.json -o plan.json",
                "  berth report plan.json -o plan.html"})
final class ReportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "PLAN.json", description = "A plan artifact written by 'berth plan -o'.")
    Path planFile;

    @Option(names = {"-o", "--output"}, paramLabel = "PLAN.html", required = true,
            description = "Write the report here (replaced whole, never half-written).")
    Path output;

    @CommandLine.Mixin
    QuietOption quiet = new QuietOption();

    @Override
    public Integer call() {
        AtomicFiles.requireDistinct(output, "-o", List.of(planFile));
        Plan plan = PlanJson.read(planFile);
        Verdict v = PlanValidator.validate(plan);
        if (v instanceof Verdict.Invalid bad) {
            throw new RejectedPlan(planFile, bad);
        }
        write(plan, output);
        if (!quiet.quiet) {
            spec.commandLine().getOut().println("wrote " + Visible.text(output.toString()) + " ("
                    + plan.buffers().size() + " reservations)");
        }
        return 0;
    }

    /** Renders and writes the report atomically. */
    static void write(Plan plan, Path output) {
        AtomicFiles.write(output, HtmlReport.toBytes(plan));
    }
}
