package dev.berth.plan;

import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Generation;
import dev.berth.target.Space;
import dev.berth.target.Target;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/** Targets built in code for planner and validator tests (the JSON reader is tested in berth-io). */
public final class Targets {
    private Targets() {
    }

    static final AddressFormat DMA32 = new AddressFormat("dma32", 0xFFFF_FFFFL, EndConvention.EXCLUSIVE);
    static final AddressFormat SRAM20 = new AddressFormat("sram20", 0xF_FFFFL, EndConvention.LAST_BYTE);

    /** The contract's npu-ref target. */
    public static Target npuRef() {
        Map<String, AddressFormat> f = new LinkedHashMap<>();
        f.put("dma32", DMA32);
        f.put("sram20", SRAM20);
        Map<String, Space> s = new LinkedHashMap<>();
        s.put("global", new Space.Logical("global", DMA32, 64, 0));
        s.put("sram", new Space.Local("sram", SRAM20, 32, 0, 256 * 1024));
        s.put("weights", new Space.External("weights", DMA32, 64, 0, 0x8000_0000L, OptionalLong.empty()));
        Generation g = new Generation(
                Optional.of(new Generation.Descriptor("global", 32, 32, Optional.of("dma32"))),
                Optional.of(new Generation.Instruction("global", 16, 16)));
        return new Target("npu-ref", f, s, Optional.of(g));
    }

    /** One logical space and one local space with the given formats, alignments and capacity. */
    static Target two(AddressFormat global, long globalAlign, AddressFormat local, long localAlign, long capacity,
                      Optional<Generation> gen) {
        Map<String, AddressFormat> f = new LinkedHashMap<>();
        f.put(global.name(), global);
        f.put(local.name(), local);
        Map<String, Space> s = new LinkedHashMap<>();
        s.put("global", new Space.Logical("global", global, globalAlign, 0));
        s.put("local", new Space.Local("local", local, localAlign, 0, capacity));
        return new Target("test", f, s, gen);
    }
}
