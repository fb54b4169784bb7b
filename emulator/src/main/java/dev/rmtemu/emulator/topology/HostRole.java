package dev.rmtemu.emulator.topology;

/** Whether a host injects trace packets, receives them, or both. */
public enum HostRole {
    SOURCE("source"), SINK("sink"), BOTH("both");

    private final String fileName;

    HostRole(String fileName) {
        this.fileName = fileName;
    }

    /** The {@code role} value used in topology files. */
    public String fileName() {
        return fileName;
    }

    public boolean sends() {
        return this != SINK;
    }

    public boolean receives() {
        return this != SOURCE;
    }

    /** The role for a file value, or null if there is none. */
    public static HostRole byFileName(String s) {
        for (HostRole r : values()) {
            if (r.fileName.equals(s)) {
                return r;
            }
        }
        return null;
    }
}
