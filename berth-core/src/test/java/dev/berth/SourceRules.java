package dev.berth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The rules docs/design.md measures over a module's Java sources, for the tests of every module
 * (berth-io and berth-cli reach this class through berth-core's test jar, as they do
 * {@link TestData}). Each rule reads the source text only; {@code SourceRulesTest} shows what
 * each one finds and what it leaves alone.
 */
public final class SourceRules {
    private static final Pattern QUALIFIED = Pattern.compile(
            "(^|[^.\"A-Za-z0-9_])(java|javax|dev\\.berth|com\\.fasterxml|picocli)\\.([a-z][a-z0-9_]*\\.)*[A-Z]");
    private static final Pattern QUOTED = Pattern.compile("\"([^\"\\\\]|\\\\.)*\"");

    private SourceRules() {
    }

    /**
     * The lines of {@code source} that write a fully qualified name inline ({@code java.util.List},
     * {@code dev.berth.io.PlanJson}) instead of importing it, as {@code NUMBER: LINE}. Comments,
     * text in quotes and the import and package lines do not count.
     */
    public static List<String> inlineNames(String source) {
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

    /**
     * {@link #inlineNames(String)} over every {@code .java} file under {@code roots}, in path
     * order, as {@code FILE:NUMBER: LINE}.
     */
    public static List<String> inlineNames(Path... roots) {
        List<String> found = new ArrayList<>();
        for (Path f : javaFiles(roots)) {
            inlineNames(read(f)).forEach(l -> found.add(f + ":" + l));
        }
        return found;
    }

    /** The {@code .java} files under {@code roots}, each root's in path order. */
    public static List<Path> javaFiles(Path... roots) {
        List<Path> files = new ArrayList<>();
        for (Path root : roots) {
            try (Stream<Path> walk = Files.walk(root)) {
                walk.filter(f -> f.toString().endsWith(".java")).sorted().forEach(files::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return files;
    }

    private static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
