package dev.berth.api;

import dev.berth.plan.Planner;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The public classes of berth-core's exported packages, found in its compiled classes. */
final class ApiClasses {
    private ApiClasses() {
    }

    /**
     * Prints the count and the names of {@link #publicTypes()}, the measure of docs/design.md:
     * {@code java -p berth-core/target/classes --patch-module dev.berth.core=berth-core/target/test-classes
     * -m dev.berth.core/dev.berth.api.ApiClasses} after {@code mvn -B -o -pl berth-core test-compile}.
     */
    public static void main(String[] args) {
        List<Class<?>> types = publicTypes();
        System.out.println(types.size() + " public types in the packages exported to every reader " + new TreeSet<>(exported()));
        types.forEach(c -> System.out.println("  " + c.getName()));
    }

    /** The packages the module exports to every reader (not those it exports only to Berth's own modules). */
    static Set<String> exported() {
        return Planner.class.getModule().getDescriptor().exports().stream().filter(e -> !e.isQualified())
                .map(e -> e.source()).collect(Collectors.toSet());
    }

    /** Every public top-level or nested class of an exported package, sorted by name. */
    static List<Class<?>> publicTypes() {
        Path root;
        try {
            root = Path.of(Planner.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        Set<String> packages = exported();
        List<Class<?>> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).sorted().toList()) {
                String rel = root.relativize(f).toString().replace(File.separatorChar, '.');
                String name = rel.substring(0, rel.length() - ".class".length());
                if (name.equals("module-info")) {
                    continue;
                }
                Class<?> c = Class.forName(name, false, Planner.class.getClassLoader());
                if (packages.contains(c.getPackageName()) && isPublic(c) && !c.isSynthetic() && !c.isAnonymousClass()) {
                    out.add(c);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
        out.sort(Comparator.comparing(Class::getName));
        return out;
    }

    private static boolean isPublic(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
            if (!Modifier.isPublic(k.getModifiers())) {
                return false;
            }
        }
        return true;
    }
}
