/**
 * The assignment phase: for the buffers with candidate spaces, one space each, the traffic
 * cost Σ accesses × requested bytes × accessCost(space) as low as the work allows, within every
 * space that has a capacity by a real placement ({@link dev.berth.assign.Packing}, through the
 * allocator and its admission check). {@link dev.berth.assign.Assigner} is the entry; the
 * planner then plans the chosen spaces as it plans any workload. Not exported.
 */
package dev.berth.assign;
