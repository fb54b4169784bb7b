package dev.rmtemu.model.runtime;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.phv.Gress;

/**
 * A stage program did something the hardware cannot do. Raised on the packet
 * that did it, naming packet, gress, stage and resource: the run fails fast.
 */
public final class PipelineViolation extends UserError {
    /** Exit code of a run that stopped on a violation. */
    public static final int EXIT_CODE = 4;

    public enum Kind {
        SECOND_REGISTER_ACCESS("accessed twice in one pass (hardware allows one read-modify-write per register array per packet)"),
        REGISTER_OF_ANOTHER_STAGE("is placed in another stage (a stage reaches only its own register arrays)"),
        REGISTER_INDEX_OUT_OF_RANGE("indexed out of range"),
        HASH_OF_ANOTHER_STAGE("is a hash unit of another stage"),
        TABLE_OF_ANOTHER_STAGE("is a table of another stage"),
        EXTERN_OF_ANOTHER_STAGE("is a counter or meter of another stage"),
        SECOND_TABLE_APPLY("applied twice in one pass"),
        FIELD_OF_ANOTHER_GRESS("is metadata of the other gress");

        private final String text;

        Kind(String text) {
            this.text = text;
        }
    }

    private final Kind kind;
    private final long packetNumber;
    private final Gress gress;
    private final int stage;
    private final String resource;

    public PipelineViolation(Kind kind, long packetNumber, Gress gress, int stage, String resource, String detail) {
        super("violation: packet " + packetNumber + ", " + gress.label() + " stage " + stage + ": '" + resource + "' "
                + kind.text + (detail == null ? "" : " (" + detail + ")"), EXIT_CODE, null);
        this.kind = kind;
        this.packetNumber = packetNumber;
        this.gress = gress;
        this.stage = stage;
        this.resource = resource;
    }

    public Kind kind() {
        return kind;
    }

    public long packetNumber() {
        return packetNumber;
    }

    public Gress gress() {
        return gress;
    }

    public int stage() {
        return stage;
    }

    public String resource() {
        return resource;
    }
}
