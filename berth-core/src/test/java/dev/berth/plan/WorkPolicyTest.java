package dev.berth.plan;

import dev.berth.assign.Work;
import dev.berth.solve.SolverChoice;
import dev.berth.solve.exact.Minimizer;
import dev.berth.solve.heuristic.HeuristicSolver;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/design.md's tables of the work policy ("The work budget") against {@link WorkPolicy}: the
 * size rules by name and value, every rule of the policy in the table and nothing else; the
 * exact search's budgets per effort as work / n within [min, max], checked as the rule's own
 * numbers and at sizes from 1 to 10^6; the node count that replaces them; the assignment's budgets.
 */
class WorkPolicyTest {
    private static final Path DESIGN = Path.of("../docs/design.md");
    private static final int[] SIZES = {1, 2, 7, 100, 213, 1000, 4096, 20_000, 1_000_000};

    /** The rows of the table whose header row is {@code header}, each as its cells (the separator row left out). */
    private static List<List<String>> table(String header) throws IOException {
        List<String> lines = Files.readAllLines(DESIGN);
        int at = lines.indexOf(header);
        assertThat(at).as("docs/design.md has the table %s", header).isNotNegative();
        List<List<String>> rows = new ArrayList<>();
        for (int i = at + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            String line = lines.get(i);
            List<String> cells = new ArrayList<>();
            for (String c : line.substring(1, line.length() - 1).split("\\|", -1)) {
                cells.add(c.strip());
            }
            rows.add(cells);
        }
        assertThat(rows).as("rows of %s", header).isNotEmpty();
        return rows;
    }

    private static final Pattern NUMBER = Pattern.compile("(?:([0-9.]+) x )?10\\^([0-9]+)|([0-9][0-9,]*)");

    /** "131,072", "2 x 10^6", "10^9" as a number. */
    private static long number(String text) {
        Matcher m = NUMBER.matcher(text.strip());
        assertThat(m.matches()).as("a number: '%s'", text).isTrue();
        if (m.group(3) != null) {
            return Long.parseLong(m.group(3).replace(",", ""));
        }
        BigDecimal factor = m.group(1) == null ? BigDecimal.ONE : new BigDecimal(m.group(1));
        return factor.multiply(BigDecimal.TEN.pow(Integer.parseInt(m.group(2)))).longValueExact();
    }

    private static Effort effort(String cell) {
        if (cell.startsWith("default")) {
            return Effort.DEFAULT;
        }
        if (cell.startsWith("`--minimize`")) {
            return Effort.MINIMIZE;
        }
        assertThat(cell).startsWith("fit");
        return Effort.FIT;
    }

    @Test
    void theSizeRulesAreThePolicysEveryOneOfThem() throws IOException, IllegalAccessException {
        Map<String, Long> policy = new LinkedHashMap<>();
        for (Field f : WorkPolicy.class.getDeclaredFields()) {
            int mod = f.getModifiers();
            if (Modifier.isStatic(mod) && Modifier.isFinal(mod) && (f.getType() == int.class || f.getType() == long.class)) {
                policy.put("`" + f.getName() + "`", ((Number) f.get(null)).longValue());
            }
        }
        policy.put("`HeuristicSolver.SIDE_BY_SIDE_FROM`", (long) HeuristicSolver.SIDE_BY_SIDE_FROM);
        Map<String, Long> documented = new LinkedHashMap<>();
        for (List<String> row : table("| rule | size | what it decides |")) {
            assertThat(documented.put(row.get(0), number(row.get(1)))).as("%s twice", row.get(0)).isNull();
        }
        assertThat(documented).isEqualTo(policy);
    }

    /** "5 x 10^7 / n nodes, within [10^4, 10^6]" as a rule; "none" as no search. */
    private static WorkPolicy.PerItem rule(String cell) {
        if (cell.equals("none")) {
            return WorkPolicy.PerItem.NONE;
        }
        Matcher m = Pattern.compile("(.+) / n(?: nodes)?, within \\[(.+), (.+)\\]").matcher(cell);
        assertThat(m.matches()).as("a rule: '%s'", cell).isTrue();
        return new WorkPolicy.PerItem(number(m.group(1)), number(m.group(2)), number(m.group(3)));
    }

    @Test
    void theExactSearchsBudgetsAreThePolicys() throws IOException {
        Map<Effort, WorkPolicy.PerItem> fit = new LinkedHashMap<>();
        Map<Effort, WorkPolicy.PerItem> narrow = new LinkedHashMap<>();
        boolean nodeCountRow = false;
        for (List<String> row : table("| effort | first placement within a finite limit | narrowing the bracket | first probes |")) {
            if (row.get(0).startsWith("`--search-nodes N`")) {
                nodeCountRow = true;
                assertThat(row.subList(1, 4)).containsExactly("N", "N (none at the fit effort)", "as the effort's");
                for (Effort e : Effort.values()) {
                    for (int n : SIZES) {
                        Minimizer.Work given = new WorkPolicy(e, OptionalLong.of(7_777)).search(n);
                        Minimizer.Work rule = WorkPolicy.of(e).search(n);
                        assertThat(given).isEqualTo(new Minimizer.Work(7_777, e == Effort.FIT ? 0 : 7_777,
                                rule.firstProbeNodes()));
                    }
                }
                continue;
            }
            Effort e = effort(row.get(0));
            fit.put(e, row.get(1).equals("as default") ? fit.get(Effort.DEFAULT) : rule(row.get(1)));
            narrow.put(e, rule(row.get(2)));
            assertThat(fit.get(e)).as("%s, first placement", e).isEqualTo(WorkPolicy.fitRule(e));
            assertThat(narrow.get(e)).as("%s, narrowing", e).isEqualTo(WorkPolicy.narrowRule(e));
            if (narrow.get(e).equals(WorkPolicy.PerItem.NONE)) {
                assertThat(row.get(3)).as("no narrowing, no probes to state").isEmpty();
            } else {
                assertThat(row.get(3)).isEqualTo(WorkPolicy.FIRST_PROBE_PER_ITEM + "n, at least "
                        + WorkPolicy.FIRST_PROBE_MIN);
            }
            for (int n : SIZES) {
                Minimizer.Work w = WorkPolicy.of(e).search(n);
                assertThat(w.fitNodes()).as("%s at %d", e, n).isEqualTo(within(fit.get(e), n));
                assertThat(w.searchNodes()).as("%s at %d", e, n).isEqualTo(within(narrow.get(e), n));
                assertThat(w.firstProbeNodes()).isEqualTo(Math.max(512, 8L * n));
            }
        }
        assertThat(fit.keySet()).containsExactlyInAnyOrder(Effort.values());
        assertThat(nodeCountRow).isTrue();
    }

    /** work / n within [min, max], written out here from the table's words. */
    private static long within(WorkPolicy.PerItem r, int n) {
        long v = r.work() / n;
        return v < r.min() ? r.min() : Math.min(v, r.max());
    }

    @Test
    void theAssignmentsBudgetsAreThePolicys() throws IOException {
        List<Effort> seen = new ArrayList<>();
        for (List<String> row : table("| effort | greedy orders | branch and bound |")) {
            Effort e = effort(row.get(0));
            seen.add(e);
            long nodes = row.get(2).equals("none") ? 0 : number(row.get(2).replace(" nodes", ""));
            assertThat(WorkPolicy.of(e).assignment()).as("%s", e)
                    .isEqualTo(new Work(number(row.get(1)), nodes, WorkPolicy.ASSIGNMENT_SEARCH_UP_TO));
        }
        assertThat(seen).containsExactlyInAnyOrder(Effort.values());
    }

    @Test
    void theLadderIsTheSizeRulesInOrder() {
        WorkPolicy d = WorkPolicy.of(Effort.DEFAULT);
        int small = WorkPolicy.MINIMIZE_UP_TO;
        assertThat(d.ladder(SolverChoice.AUTO, small, false)).containsExactly(new SpaceSearch.Heuristics(true),
                new SpaceSearch.Skyline(d.skyline(small)), new SpaceSearch.Minimise(d.search(small)));
        assertThat(d.ladder(SolverChoice.AUTO, small + 1, false)).containsExactly(new SpaceSearch.Heuristics(true),
                new SpaceSearch.Skyline(d.skyline(small + 1)), new SpaceSearch.TooLarge());
        assertThat(d.ladder(SolverChoice.AUTO, WorkPolicy.SKYLINE_UP_TO + 1, true))
                .containsExactly(new SpaceSearch.Heuristics(true), new SpaceSearch.TooLarge());
        assertThat(d.ladder(SolverChoice.AUTO, WorkPolicy.BOTH_HEURISTICS_UP_TO + 1, true))
                .containsExactly(new SpaceSearch.Heuristics(false), new SpaceSearch.TooLarge());
        // the fit effort runs the skyline only where a capacity can still be missed
        WorkPolicy fit = WorkPolicy.of(Effort.FIT);
        assertThat(fit.ladder(SolverChoice.AUTO, 100, false)).containsExactly(new SpaceSearch.Heuristics(true),
                new SpaceSearch.Minimise(fit.search(100)));
        assertThat(fit.ladder(SolverChoice.AUTO, 100, true)).containsExactly(new SpaceSearch.Heuristics(true),
                new SpaceSearch.Skyline(fit.skyline(100)), new SpaceSearch.Minimise(fit.search(100)));
        // exact: both heuristics and the minimisation at any size; a heuristic alone
        assertThat(d.ladder(SolverChoice.EXACT, 1_000_000, false)).containsExactly(new SpaceSearch.Heuristics(true),
                new SpaceSearch.Minimise(d.search(1_000_000)));
        for (SolverChoice c : List.of(SolverChoice.GREEDY, SolverChoice.BEST_FIT, SolverChoice.SKYLINE)) {
            assertThat(d.ladder(c, 10, true)).containsExactly(new SpaceSearch.OneHeuristic(c.kind().orElseThrow()));
        }
    }
}
