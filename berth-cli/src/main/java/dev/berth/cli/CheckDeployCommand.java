package dev.berth.cli;

import dev.berth.failure.Require;
import dev.berth.text.Visible;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.berth.artifact.Plan;
import dev.berth.deploy.DeployCheck;
import dev.berth.io.PlanJson;
import dev.berth.verify.PlanValidator;
import dev.berth.verify.Verdict;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code berth check-deploy}. */
@Command(name = "check-deploy", mixinStandardHelpOptions = true,
        description = "Check a plan against what the runtime provides: capacity of each logical space, "
                + "and (with --base) every absolute address against its format.",
        footer = {"", "Examples:",
                "  berth check-deploy plan.json --provide global=20KiB",
                "  berth check-deploy plan.json --provide global=1GiB --base global=0x4000_0000 --json"})
final class CheckDeployCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "PLAN.json", description = "A plan artifact written by 'berth plan -o'.")
    Path planFile;

    @Option(names = "--provide", paramLabel = "SPACE=SIZE",
            description = "Bytes the runtime provides for a logical space; one per logical space that needs bytes "
                    + "(a space whose high-water mark and runtime reserve are 0 needs none).")
    List<String> provide = new ArrayList<>();

    @Option(names = "--base", paramLabel = "SPACE=ADDRESS", description = "The loader's base address of a logical space.")
    List<String> base = new ArrayList<>();

    @Option(names = "--json", description = "Print only JSON on stdout.")
    boolean json;

    @Override
    public Integer call() throws IOException {
        Map<String, Long> prov = parse("--provide", provide);
        Map<String, Long> bases = parse("--base", base);
        Plan plan = PlanJson.read(planFile);
        Verdict v = PlanValidator.validate(plan);
        if (v instanceof Verdict.Invalid bad) {
            throw new RejectedPlan(planFile, bad);
        }
        Map<String, DeployCheck.SpaceNeed> needs = DeployCheck.check(plan, prov, bases);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            JsonOut.print(out, g -> {
                g.writeStartObject();
                g.writeObjectFieldStart("spaces");
                for (DeployCheck.SpaceNeed n : needs.values()) {
                    g.writeObjectFieldStart(n.space());
                    g.writeNumberField("highWater", n.highWater());
                    g.writeNumberField("runtimeReserve", n.runtimeReserve());
                    g.writeNumberField("needed", n.needed());
                    g.writeNumberField("provided", n.provided());
                    g.writeNumberField("spare", n.spare());
                    if (bases.containsKey(n.space())) {
                        g.writeNumberField("base", bases.get(n.space()));
                    }
                    g.writeEndObject();
                }
                g.writeEndObject();
                g.writeEndObject();
            });
            return 0;
        }
        for (DeployCheck.SpaceNeed n : needs.values()) {
            if (!prov.containsKey(n.space())) {
                out.println("space " + Visible.text(n.space()) + ": needs 0 bytes (highWater 0 + runtimeReserve 0), "
                        + "nothing to provide" + (bases.containsKey(n.space()) ? "; every address encodable at base "
                        + bases.get(n.space()) : ""));
                continue;
            }
            out.println("space " + Visible.text(n.space()) + ": needs " + n.needed() + " bytes (highWater " + n.highWater()
                    + " + runtimeReserve " + n.runtimeReserve() + "), provided " + n.provided() + ", spare " + n.spare()
                    + (bases.containsKey(n.space()) ? "; every address encodable at base " + bases.get(n.space()) : ""));
        }
        out.println("deployable");
        return 0;
    }

    private static Map<String, Long> parse(String option, List<String> values) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (String v : values) {
            Map.Entry<String, Long> e = SizeConverter.spaceSize(option, v);
            if (m.put(e.getKey(), e.getValue()) != null) {
                throw Require.invalid(option, v, "space " + e.getKey() + " given twice");
            }
        }
        return m;
    }
}
