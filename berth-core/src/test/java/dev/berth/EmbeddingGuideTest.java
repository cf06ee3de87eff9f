package dev.berth;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/embedding.md cannot drift from the example project it quotes (examples/embedding, which
 * {@code .ci/run} builds against the installed berth-core and runs, comparing its output with
 * expected-output.txt): every Java block of the guide is a run of lines of one of the example's
 * sources, every output block a run of lines of expected-output.txt, the README's Java block a
 * run of lines of FirstPlan.java, and the example depends on the version this build makes.
 */
class EmbeddingGuideTest {
    private static final Path ROOT = TestData.root();
    private static final Path EXAMPLE = ROOT.resolve("examples/embedding");

    private static String read(Path p) throws IOException {
        return Files.readString(p, StandardCharsets.UTF_8);
    }

    /** The fenced blocks of {@code markdown} whose info string is {@code language}, each as its lines. */
    static List<List<String>> blocks(String markdown, String language) {
        List<List<String>> blocks = new ArrayList<>();
        List<String> current = null;
        for (String line : markdown.split("\n", -1)) {
            if (current == null && line.equals("```" + language)) {
                current = new ArrayList<>();
            } else if (current != null && line.equals("```")) {
                blocks.add(current);
                current = null;
            } else if (current != null) {
                current.add(line);
            }
        }
        assertThat(current).as("an unclosed ```" + language + " block").isNull();
        return blocks;
    }

    private static List<String> lines(Path p) throws IOException {
        return List.of(read(p).split("\n", -1));
    }

    private static boolean runOf(List<String> block, List<String> file) {
        return Collections.indexOfSubList(file, block) >= 0;
    }

    private static List<Path> exampleSources() throws IOException {
        try (Stream<Path> s = Files.walk(EXAMPLE.resolve("src/main/java"))) {
            return s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
    }

    @Test
    void everyJavaBlockOfTheGuideIsCodeOfTheExample() throws IOException {
        List<List<String>> blocks = blocks(read(ROOT.resolve("docs/embedding.md")), "java");
        assertThat(blocks).hasSizeGreaterThanOrEqualTo(6);
        List<List<String>> sources = new ArrayList<>();
        for (Path p : exampleSources()) {
            sources.add(lines(p));
        }
        for (List<String> block : blocks) {
            assertThat(block).isNotEmpty();
            assertThat(sources.stream().anyMatch(src -> runOf(block, src)))
                    .as("this block of docs/embedding.md is a run of lines of a file under examples/embedding/src:%n%s",
                            String.join("\n", block))
                    .isTrue();
        }
    }

    @Test
    void theFirstPlanIsShownWhole() throws IOException {
        List<String> firstPlan = lines(EXAMPLE.resolve("src/main/java/example/FirstPlan.java"));
        List<String> whole = firstPlan.subList(0, firstPlan.size() - 1); // the file ends with a line break
        assertThat(blocks(read(ROOT.resolve("docs/embedding.md")), "java")).contains(whole);
    }

    @Test
    void everyOutputBlockOfTheGuideIsWhatTheExamplePrints() throws IOException {
        List<List<String>> blocks = blocks(read(ROOT.resolve("docs/embedding.md")), "text");
        assertThat(blocks).hasSizeGreaterThanOrEqualTo(5);
        List<String> expected = lines(EXAMPLE.resolve("expected-output.txt"));
        for (List<String> block : blocks) {
            assertThat(runOf(block, expected))
                    .as("this output block of docs/embedding.md is a run of lines of expected-output.txt:%n%s",
                            String.join("\n", block))
                    .isTrue();
        }
    }

    @Test
    void theReadmeSnippetIsCompiledByTheExample() throws IOException {
        List<List<String>> readme = blocks(read(ROOT.resolve("README.md")), "java");
        assertThat(readme).hasSize(1);
        List<String> indented = readme.get(0).stream().map(l -> l.isEmpty() ? l : "        " + l).toList();
        assertThat(runOf(indented, lines(EXAMPLE.resolve("src/main/java/example/FirstPlan.java"))))
                .as("README's java block, indented as a method body, is a run of lines of FirstPlan.java").isTrue();
        assertThat(read(ROOT.resolve("README.md"))).contains("](docs/embedding.md)");
    }

    @Test
    void theExampleDependsOnTheVersionThisBuildMakes() throws IOException {
        String version = version(read(ROOT.resolve("pom.xml")));
        String example = read(EXAMPLE.resolve("pom.xml"));
        Matcher dep = Pattern.compile("<artifactId>berth-core</artifactId>\\s*<version>([^<]+)</version>").matcher(example);
        assertThat(dep.find()).as("examples/embedding/pom.xml depends on berth-core with a version").isTrue();
        assertThat(dep.group(1)).isEqualTo(version);
        String guide = read(ROOT.resolve("docs/embedding.md"));
        assertThat(guide).contains("| `dev.berth` | `berth-core` | `" + version + "` |")
                .contains("<version>" + version + "</version>")
                .contains("berth-core-" + version + "-sources.jar").contains("berth-core-" + version + "-javadoc.jar");
        assertThat(read(ROOT.resolve(".ci/run"))).contains("examples/embedding/run.sh");
    }

    /** The project version: the first {@code <version>} of the parent POM, its own. */
    private static String version(String pom) {
        Matcher m = Pattern.compile("<artifactId>berth-parent</artifactId>\\s*<version>([^<]+)</version>").matcher(pom);
        assertThat(m.find()).isTrue();
        return m.group(1);
    }
}
