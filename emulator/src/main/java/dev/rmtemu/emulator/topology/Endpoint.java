package dev.rmtemu.emulator.topology;

/** One end of a link: a node (by index and name) and one of its ports. Written {@code name:port}. */
public record Endpoint(int node, String name, int port) {
    @Override
    public String toString() {
        return name + ":" + port;
    }
}
