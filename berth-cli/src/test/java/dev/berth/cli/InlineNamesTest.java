package dev.berth.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * berth-cli's code names types by imports, not by fully qualified names written inline
 * ({@code java.util.List}, {@code dev.berth.io.PlanJson}): the rule docs/design.md counts, kept
 * at zero for this module's main and test sources. Comments, text in quotes and the import and
 * package lines do not count.
 */
class InlineNamesTest {
    private static final Pattern QUALIFIED = Pattern.compile(
            "(^|[^.\"A-Za-z0-9_])(java|javax|dev\\.berth|com\\.fasterxml|picocli)\\.([a-z][a-z0-9_]*\\.)*[A-Z]");
    private static final Pattern QUOTED = Pattern.compile("\"([^\"\\\\]|\\\\.)*\"");

    /** The lines of {@code source} that write a qualified name inline, as {@code NUMBER: LINE}. */
    static List<String> inline(String source) {
        List<String> found = new ArrayList<>();
        boolean inComment = false;
        String[] lines = source.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String code = lines[i];
            if (inComment) {
                int end = code.indexOf("*/");
                if (end < 0) {
                    continue;
                }
                code = code.substring(end + 2);
                inComment = false;
            }
            String t = code.strip();
            if (t.startsWith("import ") || t.startsWith("package ") || t.startsWith("*")) {
                continue;
            }
            code = QUOTED.matcher(code).replaceAll("\"\"");
            int line = code.indexOf("//");
            if (line >= 0) {
                code = code.substring(0, line);
            }
            int open = code.indexOf("/*");
            if (open >= 0) {
                int close = code.indexOf("*/", open + 2);
                inComment = close < 0;
                code = code.substring(0, open) + (close < 0 ? "" : code.substring(close + 2));
            }
            if (QUALIFIED.matcher(code).find()) {
                found.add((i + 1) + ": " + lines[i].strip());
            }
        }
        return found;
    }

    @Test
    void theRuleFindsAnInlineNameAndNothingElse() {
        assertThat(inline("class A {\n    java.util.List<String> a;\n}\n")).containsExactly("2: java.util.List<String> a;");
        assertThat(inline("        @picocli.CommandLine.Mixin\n")).hasSize(1);
        assertThat(inline("x = new dev.berth.io.PlanJson();")).hasSize(1);
        assertThat(inline("import java.util.List;\npackage dev.berth.cli;\n// java.util.List\n"
                + "/** {@link java.util.List} */\n/*\n java.util.List\n */\nString s = \"java.util.List\";\n"
                + "int n = list.size(); // see java.util.List\nMap.Entry<String, Long> e;\n")).isEmpty();
    }

    @Test
    void berthCliWritesNoQualifiedNameInline() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path root : List.of(Path.of("src/main/java"), Path.of("src/test/java"))) {
            try (Stream<Path> files = Files.walk(root)) {
                files.filter(f -> f.toString().endsWith(".java")).sorted().forEach(f -> {
                    try {
                        inline(Files.readString(f)).forEach(l -> found.add(f + ":" + l));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            }
        }
        assertThat(found).isEmpty();
    }
}
