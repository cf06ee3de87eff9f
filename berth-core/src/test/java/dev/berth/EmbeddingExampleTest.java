package dev.berth;

import dev.berth.artifact.Plan;
import dev.berth.plan.Planner;
import dev.berth.target.AddressFormat;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.Workload;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's "embed the core" example, kept compiling and true: the code between the markers
 * below is the README's {@code java} block, line for line (checked by the second test).
 */
class EmbeddingExampleTest {
    private final List<String> printed = new ArrayList<>();

    private void println(String line) {
        printed.add(line);
    }

    @Test
    void theReadmeExample() {
        // --- README example begins
        AddressFormat dma32 = AddressFormat.exclusive("dma32", 0xFFFF_FFFFL);
        Space global = Space.logical("global", dma32).alignment(64).build();
        Target target = Target.builder("mine").space(global).build();
        Workload workload = Workload.builder("eleven")
                .buffer(BufferSpec.named("a").size(4096).in(global).live(0, 1).build())
                .buffer(BufferSpec.named("b").size(4096).in(global).live(0, 1).build())
                .buffer(BufferSpec.named("c").size(3072).in(global).live(1, 1).build())
                .build();
        Plan plan = Planner.plan(target, workload, Planner.Options.defaults()).plan(); // validated, or BerthException
        plan.buffers().forEach(b -> println(b.name() + " @ " + b.offset() + " (+" + b.reserved() + ")"));
        println("highWater " + plan.metrics(global).highWater());   // 11264
        // --- README example ends
        assertThat(plan.metrics(global).highWater()).isEqualTo(11 * 1024);
        assertThat(plan.buffers()).extracting(b -> b.offset()).containsExactlyInAnyOrder(0L, 4096L, 8192L);
        assertThat(printed).last().isEqualTo("highWater 11264");
    }

    @Test
    void theReadmeShowsThisCode() throws IOException {
        Path root = TestData.root();
        List<String> test = Files.readAllLines(root.resolve("berth-core/src/test/java/dev/berth/EmbeddingExampleTest.java"),
                StandardCharsets.UTF_8);
        List<String> example = new ArrayList<>();
        boolean in = false;
        for (String line : test) {
            if (line.strip().equals("// --- README example ends")) {
                in = false;
            }
            if (in) {
                example.add(line.substring(8).replace("println(", "System.out.println("));
            }
            if (line.strip().equals("// --- README example begins")) {
                in = true;
            }
        }
        String readme = Files.readString(root.resolve("README.md"), StandardCharsets.UTF_8);
        int start = readme.indexOf("```java\n");
        assertThat(start).as("README has a java block").isNotNegative();
        int end = readme.indexOf("```", start + 8);
        List<String> block = List.of(readme.substring(start + 8, end).split("\n"));
        assertThat(example).isNotEmpty();
        assertThat(block).containsExactlyElementsOf(example);
    }
}
