package dev.berth;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

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
    void aTextBlockIsTextButTheCodeAfterItIsCode() {
        String q = "\"\"\"";
        assertThat(SourceRules.inlineNames("String s = " + q + "\n    java.util.List<String> a;\n    " + q + ";\n"
                + "java.util.Set<String> b;\n")).containsExactly("4: java.util.Set<String> b;");
        assertThat(SourceRules.inlineNames("f(" + q + "\n    dev.berth.a.A x;\n    " + q + ", java.util.List.of());\n"))
                .containsExactly("3: " + q + ", java.util.List.of());");
    }

    @Test
    void theRepeatedPathRuleFindsAMessageThatWritesItsPathAgain() {
        assertThat(SourceRules.repeatedPaths("class A {\n    void f() {\n        throw BerthException.invalid(\"version\", t,\n"
                + "                \"version: \" + t + \" is not 1\");\n    }\n}\n"))
                .containsExactly("3: throw BerthException.invalid(\"version\", t,");
        assertThat(SourceRules.repeatedPaths("x(BerthException.invalid(p + \".open\", p + \".open: '\" + v + \"'\"));"))
                .hasSize(1);
        assertThat(SourceRules.repeatedPaths("x(BerthException.invalid(at, at + \": no \" + f(a, b)));")).hasSize(1);
        assertThat(SourceRules.repeatedPaths("x(BerthException.invalid(\"buffers[\" + i + \"]\", n,\n"
                + "        \"buffers[\" + i + \"]: duplicate\"));")).hasSize(1);
        // another path, no ": " after it, a message in other words, or Require.invalid, which writes the prefix
        assertThat(SourceRules.repeatedPaths("a(BerthException.invalid(\"DIR\", d.toString(), d + \": no such directory\"));\n"
                + "b(BerthException.invalid(\"--input\", \"--input applies to ONNX models only\"));\n"
                + "c(BerthException.invalid(name + \":\" + line, name + \": line \" + line + \": bad\"));\n"
                + "d(BerthException.invalid(p, \"a reservation named \" + p + \": twice\"));\n"
                + "e(BerthException.invalid(p, q + \": '\" + v));\n"
                + "f(Require.invalid(\"version\", \"version: 2\"));\n")).isEmpty();
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

    @Test
    void aPackageUsesWhatItImportsOrWritesOutButNotWhatItQuotesOrComments(@TempDir Path dir) throws IOException {
        Path a = Files.createDirectories(dir.resolve("dev/berth/a"));
        Files.writeString(a.resolve("A.java"), """
                package dev.berth.a;

                import dev.berth.b.B;
                import static dev.berth.c.C.of;

                // dev.berth.d.D
                /** {@link dev.berth.e.E} */
                class A {
                    String s = "dev.berth.f.F";
                    dev.berth.g.G g;
                    dev.berth.a.A self;
                }
                """);
        Files.writeString(a.resolve("A2.java"), "package dev.berth.a;\nimport dev.berth.h.*;\nclass A2 {\n}\n");
        Files.writeString(a.resolve("module-info.java"), "module m {\n    exports dev.berth.z.Z;\n}\n");
        assertThat(SourceRules.packageUses(dir)).containsExactly(Map.entry("dev.berth.a", Map.of(
                "dev.berth.b", Set.of("A.java"), "dev.berth.c", Set.of("A.java"), "dev.berth.g", Set.of("A.java"),
                "dev.berth.h", Set.of("A2.java"))));
    }

    @Test
    void theCycleCheckFindsACircleAndOnlyACircle() {
        // a -> b -> c -> a is one circle; d -> a and c -> e are not in it
        Map<String, Map<String, Set<String>>> uses = new TreeMap<>();
        uses.put("a", Map.of("b", Set.of("A.java")));
        uses.put("b", Map.of("c", Set.of("B.java")));
        uses.put("c", Map.of("a", Set.of("C.java"), "e", Set.of("C.java")));
        uses.put("d", Map.of("a", Set.of("D.java")));
        assertThat(SourceRules.circles(uses)).containsExactly(Set.of("a", "b", "c"));
        assertThat(SourceRules.circleUses(uses)).containsExactly("a -> b [A.java]", "b -> c [B.java]", "c -> a [C.java]");
        uses.put("c", Map.of("e", Set.of("C.java")));
        assertThat(SourceRules.circles(uses)).isEmpty();
        assertThat(SourceRules.circleUses(uses)).isEmpty();
    }
}
