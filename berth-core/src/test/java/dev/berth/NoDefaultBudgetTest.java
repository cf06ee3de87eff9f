package dev.berth;

import dev.berth.solve.Budget;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Space;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Contract §1: a logical space has no compile-time capacity, no default budget, no hidden
 * ceiling. This greps every module's main sources (code with comments removed, and
 * resources) for the shapes such a budget would take, and checks the types that could hold one.
 */
class NoDefaultBudgetTest {
    /** Names a memory budget or default capacity would go by. */
    private static final Pattern BUDGET_NAME = Pattern.compile(
            "(?i)default[_ -]?(budget|capacity|memory|limit)"
                    + "|(memory|global|logical|sram|hbm|dram)[_ -]?(budget|capacity|ceiling)"
                    + "|budget[_ -]?(bytes|capacity|size|kib|mib|gib|memory)"
                    + "|max[_ -]?(memory|bytes)\\b|hidden[_ -]?(ceiling|budget)");
    /** Any assignment to something called a budget: allowed only for the solver's time budget. */
    private static final Pattern BUDGET_ASSIGN = Pattern.compile("(?i)\\bbudget\\s*=(?!=)");
    private static final Pattern TIME_BUDGET_ASSIGN = Pattern.compile(
            "(\\bBudget\\s+budget\\s*=\\s*Budget\\.(seconds|unlimited)\\(|this\\.budget\\s*=\\s*budget;)");

    private static List<Path> mainSources() {
        Path root = TestData.root();
        List<Path> files = new ArrayList<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (Path module : modules.filter(m -> Files.isDirectory(m.resolve("src").resolve("main"))).toList()) {
                try (Stream<Path> walk = Files.walk(module.resolve("src").resolve("main"))) {
                    walk.filter(Files::isRegularFile).forEach(files::add);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    /** The text with Java comments blanked out (string literals kept: a budget in a message still counts). */
    static String withoutComments(String src) {
        StringBuilder out = new StringBuilder(src.length());
        int i = 0;
        while (i < src.length()) {
            char c = src.charAt(i);
            if (c == '"') { // a string literal (text blocks are read as three of these, which is fine here)
                int j = i + 1;
                while (j < src.length() && src.charAt(j) != '"' && src.charAt(j) != '\n') {
                    j += src.charAt(j) == '\\' ? 2 : 1;
                }
                j = Math.min(j + 1, src.length());
                out.append(src, i, j);
                i = j;
            } else if (src.startsWith("//", i)) {
                while (i < src.length() && src.charAt(i) != '\n') {
                    i++;
                }
            } else if (src.startsWith("/*", i)) {
                int end = src.indexOf("*/", i + 2);
                end = end < 0 ? src.length() : end + 2;
                for (int k = i; k < end; k++) {
                    out.append(src.charAt(k) == '\n' ? '\n' : ' ');
                }
                i = end;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    @Test
    void theCommentStripperKeepsCodeAndStrings() {
        String src = "long a = 1; // defaultBudget\n/* DEFAULT_CAPACITY */ String s = \"default budget\";";
        assertThat(withoutComments(src)).contains("long a = 1;").doesNotContain("defaultBudget")
                .doesNotContain("DEFAULT_CAPACITY").contains("\"default budget\"");
        assertThat(BUDGET_NAME.matcher("static final long DEFAULT_CAPACITY = 1 << 20;").find()).isTrue();
        assertThat(BUDGET_NAME.matcher("long globalBudget = 16 << 20;").find()).isTrue();
        assertThat(BUDGET_NAME.matcher("long memory_budget;").find()).isTrue();
        assertThat(BUDGET_ASSIGN.matcher("budget = 1 << 20;").find()).isTrue();
        assertThat(TIME_BUDGET_ASSIGN.matcher("budget = 1 << 20;").find()).isFalse();
    }

    @Test
    void noMainSourceNamesADefaultBudgetOrCapacity() throws IOException {
        List<Path> files = mainSources();
        List<String> hits = new ArrayList<>();
        int javaFiles = 0;
        for (Path f : files) {
            String name = f.getFileName().toString();
            if (!(name.endsWith(".java") || name.endsWith(".json") || name.endsWith(".properties"))) {
                continue;
            }
            String text = Files.readString(f, StandardCharsets.UTF_8);
            if (name.endsWith(".java")) {
                javaFiles++;
                text = withoutComments(text);
            }
            String[] lines = text.split("\n", -1);
            for (int n = 0; n < lines.length; n++) {
                String line = lines[n];
                Matcher m = BUDGET_NAME.matcher(line);
                if (m.find()) {
                    hits.add(f + ":" + (n + 1) + ": '" + m.group() + "' in: " + line.strip());
                }
                if (BUDGET_ASSIGN.matcher(line).find() && !TIME_BUDGET_ASSIGN.matcher(line).find()) {
                    hits.add(f + ":" + (n + 1) + ": assignment to a budget that is not the solver's time budget: "
                            + line.strip());
                }
            }
        }
        System.out.println("NoDefaultBudgetTest: scanned " + files.size() + " main files (" + javaFiles + " Java), "
                + hits.size() + " hits");
        assertThat(javaFiles).as("the scan must see the sources").isGreaterThan(20);
        assertThat(hits).isEmpty();
    }

    /** The one type called Budget measures time: a deadline and a cancellation flag, no bytes. */
    @Test
    void theSolversBudgetIsTimeNotBytes() {
        List<String> fields = Arrays.stream(Budget.class.getDeclaredFields())
                .filter(f -> !Modifier.isStatic(f.getModifiers())).map(Field::getName).toList();
        // time, cancellation and progress reporting only: nothing that counts bytes
        assertThat(fields).isNotEmpty().allSatisfy(f -> assertThat(f.toLowerCase(java.util.Locale.ROOT))
                .doesNotContain("byte").doesNotContain("capacity").doesNotContain("size").doesNotContain("memory"));
        assertThat(fields).contains("deadlineNanos", "cancelled");
    }

    /** The logical space type cannot carry a capacity: no component for one, and it never reports one. */
    @Test
    void theLogicalSpaceHoldsNoCapacity() throws IOException {
        List<String> components = Arrays.stream(Space.Logical.class.getRecordComponents())
                .map(RecordComponent::getName).toList();
        assertThat(components).containsExactly("name", "format", "alignment", "runtimeReserve");
        Space.Logical g = new Space.Logical("g", new AddressFormat("f", Long.MAX_VALUE, EndConvention.LAST_BYTE),
                1, 1L << 40);
        assertThat(g.capacity()).isEqualTo(OptionalLong.empty());
        assertThat(g.usableCapacity()).isEqualTo(OptionalLong.empty());
        // and its source makes no capacity: the record's body never builds a present OptionalLong
        Path space = TestData.root().resolve("berth-core/src/main/java/dev/berth/target/Space.java");
        String src = withoutComments(Files.readString(space, StandardCharsets.UTF_8));
        int from = src.indexOf("record Logical(");
        int to = src.indexOf("record Local(");
        assertThat(from).isPositive();
        assertThat(to).isGreaterThan(from);
        String logical = src.substring(from, to);
        assertThat(logical).contains("OptionalLong.empty()").doesNotContain("OptionalLong.of(")
                .doesNotContainPattern("(?i)capacity\\w*\\s*=");
    }
}
