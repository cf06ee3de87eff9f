package dev.berth;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** What each of {@link SourceRules}' rules finds, and what it leaves alone. */
class SourceRulesTest {
    @Test
    void theInlineNameRuleFindsAnInlineNameAndNothingElse() {
        assertThat(SourceRules.inlineNames("class A {\n    java.util.List<String> a;\n}\n"))
                .containsExactly("2: java.util.List<String> a;");
        assertThat(SourceRules.inlineNames("        @picocli.CommandLine.Mixin\n")).hasSize(1);
        assertThat(SourceRules.inlineNames("x = new dev.berth.io.PlanJson();")).hasSize(1);
        assertThat(SourceRules.inlineNames("import java.util.List;\npackage dev.berth.cli;\n// java.util.List\n"
                + "/** {@link java.util.List} */\n/*\n java.util.List\n */\nString s = \"java.util.List\";\n"
                + "int n = list.size(); // see java.util.List\nMap.Entry<String, Long> e;\n")).isEmpty();
    }

    @Test
    void theInlineNameRuleReadsEveryJavaFileUnderTheRoots(@TempDir Path dir) throws IOException {
        Path a = Files.writeString(Files.createDirectories(dir.resolve("p")).resolve("A.java"),
                "package p;\nclass A {\n    java.util.Set<String> s;\n}\n");
        Files.writeString(dir.resolve("p").resolve("B.java"), "package p;\nclass B {\n}\n");
        Files.writeString(dir.resolve("p").resolve("notes.txt"), "java.util.Set\n");
        assertThat(SourceRules.javaFiles(dir)).hasSize(2);
        assertThat(SourceRules.inlineNames(dir)).containsExactly(a + ":3: java.util.Set<String> s;");
    }
}
