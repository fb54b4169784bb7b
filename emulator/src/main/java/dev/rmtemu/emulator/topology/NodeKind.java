package dev.rmtemu.emulator.topology;

/** What a topology node is. */
public enum NodeKind {
    /** A switch running a stage program on a target profile (e.g. tofino1). */
    PROGRAMMABLE_SWITCH("switch"),
    /** A fixed-function switch: forwards by the routing tables only, runs no program. */
    REGULAR_SWITCH("regular"),
    /** An end host: a trace source and/or sink owning one IPv4 prefix. */
    HOST("host");

    private final String fileName;

    NodeKind(String fileName) {
        this.fileName = fileName;
    }

    /** The {@code type} value used in topology files. */
    public String fileName() {
        return fileName;
    }

    public boolean isSwitch() {
        return this != HOST;
    }
}
