package dev.berth.api;

import dev.berth.plan.Planner;
import org.junit.jupiter.api.Test;

import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * berth-core is a named module that exports its API packages and nothing else, and the API
 * does not hand out a type a caller could not name: every public signature of an exported
 * class uses only JDK types and exported types.
 */
class ModuleApiTest {
    private static final Set<String> API = Set.of("dev.berth.arith", "dev.berth.failure", "dev.berth.target",
            "dev.berth.workload", "dev.berth.plan", "dev.berth.solve", "dev.berth.artifact", "dev.berth.verify",
            "dev.berth.deploy", "dev.berth.schedule");

    @Test
    void theModuleExportsExactlyTheApiPackages() {
        Module m = Planner.class.getModule();
        assertThat(m.isNamed()).as("berth-core runs as a module in its tests").isTrue();
        assertThat(m.getName()).isEqualTo("dev.berth.core");
        assertThat(ApiClasses.exported()).containsExactlyInAnyOrderElementsOf(API);
        assertThat(m.getDescriptor().requires()).extracting(r -> r.name()).containsExactly("java.base");
        for (String internal : List.of("dev.berth.admit", "dev.berth.alloc", "dev.berth.assign", "dev.berth.sweep",
                "dev.berth.measure", "dev.berth.text", "dev.berth.solve.heuristic", "dev.berth.solve.skyline",
                "dev.berth.solve.exact", "dev.berth.solve.thread")) {
            assertThat(m.getPackages()).contains(internal);
            assertThat(m.isExported(internal)).as(internal).isFalse();
        }
    }

    /**
     * What berth-io and berth-cli measure and print the planner's way, and nothing else, is exported
     * to those two modules alone (berth-bench, on the class path, needs none of it).
     */
    @Test
    void onlyBerthsOwnModulesReadTheSharedInternals() {
        Map<String, Set<String>> qualified = new TreeMap<>();
        for (ModuleDescriptor.Exports e : Planner.class.getModule().getDescriptor().exports()) {
            if (e.isQualified()) {
                qualified.put(e.source(), e.targets());
            }
        }
        assertThat(qualified).isEqualTo(Map.of(
                "dev.berth.sweep", Set.of("dev.berth.io", "dev.berth.cli"),
                "dev.berth.measure", Set.of("dev.berth.io", "dev.berth.cli"),
                "dev.berth.text", Set.of("dev.berth.cli")));
        assertThat(Planner.class.getModule().getDescriptor().opens()).isEmpty();
    }

    @Test
    void publicSignaturesUseOnlyJdkAndExportedTypes() {
        List<Class<?>> types = ApiClasses.publicTypes();
        assertThat(types).hasSizeGreaterThan(30);
        List<String> leaks = new ArrayList<>();
        for (Class<?> c : types) {
            for (Method m : c.getDeclaredMethods()) {
                if (visible(m.getModifiers()) && !m.isSynthetic()) {
                    check(leaks, c, m.getName(), m.getReturnType());
                    params(leaks, c, m);
                }
            }
            for (Constructor<?> k : c.getDeclaredConstructors()) {
                if (visible(k.getModifiers())) {
                    params(leaks, c, k);
                }
            }
            for (Field f : c.getDeclaredFields()) {
                if (visible(f.getModifiers())) {
                    check(leaks, c, f.getName(), f.getType());
                }
            }
            if (c.getSuperclass() != null) {
                check(leaks, c, "extends", c.getSuperclass());
            }
        }
        assertThat(leaks).isEmpty();
    }

    private static boolean visible(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static void params(List<String> leaks, Class<?> c, Executable e) {
        for (Class<?> p : e.getParameterTypes()) {
            check(leaks, c, e.getName(), p);
        }
    }

    private static void check(List<String> leaks, Class<?> owner, String member, Class<?> type) {
        Class<?> t = type;
        while (t.isArray()) {
            t = t.getComponentType();
        }
        if (t.isPrimitive() || t.getPackageName().startsWith("java.")) {
            return;
        }
        if (!API.contains(t.getPackageName())) {
            leaks.add(owner.getName() + "." + member + " uses " + t.getName());
        }
    }
}
