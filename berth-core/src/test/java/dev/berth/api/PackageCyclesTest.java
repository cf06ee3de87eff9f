package dev.berth.api;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No import circle between berth-core's packages: from its sources, each package's uses of
 * another package ({@code dev.berth.x.Type}, in an import or written out; comments and strings
 * left out), and then every strongly connected component of that graph must be one package. A
 * circle is reported with the uses that close it, file by file.
 */
class PackageCyclesTest {
    private static final Path SOURCES = Path.of("src/main/java");
    private static final Pattern PACKAGE = Pattern.compile("package\\s+([\\w.]+)\\s*;");
    private static final Pattern USE = Pattern.compile("\\b(dev\\.berth(?:\\.[a-z]\\w*)+)\\.[A-Z]");
    private static final Pattern COMMENTS_AND_STRINGS = Pattern.compile(
            "/\\*.*?\\*/|//[^\\n]*|\"(?:\\\\.|[^\"\\\\])*\"|'(?:\\\\.|[^'\\\\])+'", Pattern.DOTALL);

    /** Package to the packages it uses, each with the files that use it. */
    static Map<String, Map<String, Set<String>>> uses(Path root) {
        Map<String, Map<String, Set<String>>> uses = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                if (f.getFileName().toString().equals("module-info.java")) {
                    continue;
                }
                String code = COMMENTS_AND_STRINGS.matcher(Files.readString(f)).replaceAll(" ");
                Matcher pm = PACKAGE.matcher(code);
                assertThat(pm.find()).as("%s has a package", f).isTrue();
                String pkg = pm.group(1);
                Map<String, Set<String>> out = uses.computeIfAbsent(pkg, k -> new TreeMap<>());
                Matcher m = USE.matcher(code);
                while (m.find()) {
                    if (!m.group(1).equals(pkg)) {
                        out.computeIfAbsent(m.group(1), k -> new TreeSet<>()).add(f.getFileName().toString());
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return uses;
    }

    /** The strongly connected components of more than one package (Tarjan's algorithm, iterative). */
    static List<Set<String>> circles(Map<String, Map<String, Set<String>>> uses) {
        Set<String> nodes = new TreeSet<>(uses.keySet());
        uses.values().forEach(m -> nodes.addAll(m.keySet()));
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<Set<String>> out = new ArrayList<>();
        for (String start : nodes) {
            if (index.containsKey(start)) {
                continue;
            }
            // frames of the depth-first search: a node and the iterator over its successors
            Deque<Map.Entry<String, Iterator<String>>> frames = new ArrayDeque<>();
            frames.push(Map.entry(start, successors(uses, start).iterator()));
            index.put(start, index.size());
            low.put(start, index.get(start));
            stack.push(start);
            onStack.add(start);
            while (!frames.isEmpty()) {
                String v = frames.peek().getKey();
                Iterator<String> it = frames.peek().getValue();
                if (it.hasNext()) {
                    String w = it.next();
                    if (!index.containsKey(w)) {
                        index.put(w, index.size());
                        low.put(w, index.get(w));
                        stack.push(w);
                        onStack.add(w);
                        frames.push(Map.entry(w, successors(uses, w).iterator()));
                    } else if (onStack.contains(w)) {
                        low.put(v, Math.min(low.get(v), index.get(w)));
                    }
                    continue;
                }
                frames.pop();
                if (!frames.isEmpty()) {
                    String parent = frames.peek().getKey();
                    low.put(parent, Math.min(low.get(parent), low.get(v)));
                }
                if (low.get(v).equals(index.get(v))) {
                    Set<String> component = new TreeSet<>();
                    String w;
                    do {
                        w = stack.pop();
                        onStack.remove(w);
                        component.add(w);
                    } while (!w.equals(v));
                    if (component.size() > 1) {
                        out.add(component);
                    }
                }
            }
        }
        return out;
    }

    private static Set<String> successors(Map<String, Map<String, Set<String>>> uses, String p) {
        return uses.getOrDefault(p, Map.of()).keySet();
    }

    @Test
    void noPackageOfTheCoreUsesOneThatUsesItBack() {
        Map<String, Map<String, Set<String>>> uses = uses(SOURCES);
        assertThat(uses).as("berth-core's packages, read from %s", SOURCES.toAbsolutePath()).hasSizeGreaterThan(10);
        List<String> report = new ArrayList<>();
        for (Set<String> circle : circles(uses)) {
            for (String a : circle) {
                for (String b : circle) {
                    Set<String> files = uses.getOrDefault(a, Map.of()).get(b);
                    if (files != null) {
                        report.add(a + " -> " + b + " " + files);
                    }
                }
            }
        }
        assertThat(report).as("uses inside import circles").isEmpty();
    }

    @Test
    void theCheckFindsACircleAndOnlyACircle() {
        // a -> b -> c -> a is one circle; d -> a and c -> e are not in it
        Map<String, Map<String, Set<String>>> uses = new TreeMap<>();
        uses.put("a", Map.of("b", Set.of("A.java")));
        uses.put("b", Map.of("c", Set.of("B.java")));
        uses.put("c", Map.of("a", Set.of("C.java"), "e", Set.of("C.java")));
        uses.put("d", Map.of("a", Set.of("D.java")));
        assertThat(circles(uses)).containsExactly(Set.of("a", "b", "c"));
        uses.put("c", Map.of("e", Set.of("C.java")));
        assertThat(circles(uses)).isEmpty();
    }
}
