package dev.rmtemu.model.phv;

/** The two threads of a Tofino-like pipeline: before and after the traffic manager. */
public enum Gress {
    INGRESS, EGRESS;

    public String label() {
        return this == INGRESS ? "ingress" : "egress";
    }
}
