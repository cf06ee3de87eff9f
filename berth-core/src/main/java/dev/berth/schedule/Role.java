package dev.berth.schedule;

/** What a buffer of an operator graph is, which fixes where it is live and whether it may be written over. */
public enum Role {
    /** Written by the caller before the first operator; live from the start to its last consumer; may be written over. */
    INPUT("input"),
    /** Written by exactly one operator; live from it to its last consumer; may be written over. */
    INTERMEDIATE("intermediate"),
    /** Written by exactly one operator; live from it to the end; never written over. */
    OUTPUT("output"),
    /** Written by nobody; live over the whole run; never written over. */
    CONSTANT("constant"),
    /** State kept across runs, written by nobody in this graph; live over the whole run; never written over. */
    VARIABLE("variable");

    private final String id;

    Role(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    /** True for the roles an operator writes (intermediate, output). */
    boolean produced() {
        return this == INTERMEDIATE || this == OUTPUT;
    }

    /** True for the roles whose bytes a later operator may write over (input, intermediate). */
    boolean reusable() {
        return this == INPUT || this == INTERMEDIATE;
    }
}
