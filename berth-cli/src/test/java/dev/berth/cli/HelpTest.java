package dev.berth.cli;

import dev.berth.solve.SolverChoice;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import picocli.CommandLine;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Every command's {@code --help} shows at least one example that starts with {@code berth}. */
class HelpTest {

    private static void collect(CommandLine cl, List<String> path, List<List<String>> out) {
        out.add(path);
        cl.getSubcommands().forEach((name, sub) -> {
            if (!name.equals(sub.getCommandName())) {
                return; // an alias: its command is visited under its own name
            }
            List<String> p = new ArrayList<>(path);
            p.add(name);
            collect(sub, p, out);
        });
    }

    @TestFactory
    List<DynamicTest> everyHelpHasAnExample() {
        List<List<String>> commands = new ArrayList<>();
        collect(Main.commandLine(new String[0]), List.of(), commands);
        assertThat(commands).extracting(c -> String.join(" ", c))
                .contains("", "plan", "check-deploy", "report", "completion", "help");
        List<DynamicTest> tests = new ArrayList<>();
        for (List<String> c : commands) {
            tests.add(DynamicTest.dynamicTest("berth " + String.join(" ", c) + " --help", () -> {
                List<String> args = new ArrayList<>(c);
                args.add("--help");
                Run r = Run.of(args.toArray(String[]::new));
                assertThat(r.exit()).isZero();
                String help = r.out();
                assertThat(help).containsPattern("(?m)^Examples?:$");
                assertThat(help).containsPattern("(?m)^  (source <\\()?berth( |\\)|$)");
                // the examples paste: each is one line as written, however long; the prose fits 80 columns
                CommandLine cl = Main.commandLine(new String[0]);
                for (String name : c) {
                    cl = cl.getSubcommands().get(name);
                }
                List<String> lines = help.lines().toList();
                for (String footer : cl.getCommandSpec().usageMessage().footer()) {
                    assertThat(lines).contains(footer);
                }
                assertThat(lines).filteredOn(l -> !l.startsWith("  berth ")).allSatisfy(l -> assertThat(l.length())
                        .as(l).isLessThanOrEqualTo(80));
            }));
        }
        return tests;
    }

    /**
     * {@code plan} and {@code bench minimalloc} list exactly the solvers they accept, and every one
     * listed is accepted (an unknown one is refused with the same list).
     */
    @TestFactory
    List<DynamicTest> theSolverHelpListsExactlyWhatIsAccepted() {
        List<DynamicTest> tests = new ArrayList<>();
        for (List<String> c : List.of(List.of("plan"), List.of("bench", "minimalloc"))) {
            tests.add(DynamicTest.dynamicTest("berth " + String.join(" ", c), () -> {
                List<String> args = new ArrayList<>(c);
                args.add("--help");
                String help = Run.of(args.toArray(String[]::new)).out().replaceAll("\\s+", " ");
                assertThat(help).contains("--solver=SOLVER auto, greedy, best-fit, skyline or exact.");
                assertThat(SolverChoice.ids()).isEqualTo("auto, greedy, best-fit, skyline, exact");
                List<String> bad = new ArrayList<>(c);
                bad.addAll(List.of("--solver", "annealing", "x.csv", "--capacity", "1"));
                Run refused = Run.of(bad.toArray(String[]::new));
                assertThat(refused.exit()).isEqualTo(2);
                assertThat(refused.err()).contains("'annealing' is not one of auto, greedy, best-fit, skyline, exact");
            }));
        }
        return tests;
    }
}
