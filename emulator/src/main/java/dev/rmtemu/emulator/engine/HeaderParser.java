package dev.rmtemu.emulator.engine;

import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.runtime.Phv;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.pcap.FrameSynthesizer;

import java.util.Arrays;

/**
 * The parser's start on a packet: a fresh PHV (every field 0: the header fields until
 * {@link FrameParser} loads them from the frame, metadata, and the bridged fields, which
 * start at zero on a packet's first parse and travel with it afterwards), and, for programs
 * run pass by pass outside a switch, the program's parse graph over a record's frame.
 */
public final class HeaderParser {
    /**
     * From this many PHV slots on, a fresh PHV is zeroed by one copy of a zero template
     * instead of slot by slot. Measured (JMH, tofino1, four runs each): WBMon (37 slots) 6.6 → 6.9 M
     * packets/s with the copy; counter (5) gains nothing end to end and its ingress pass alone
     * lost up to half its rate.
     */
    static final int ZERO_COPY_MIN_SLOTS = 24;
    /** A PHV's worth of zeros when it has at least {@link #ZERO_COPY_MIN_SLOTS} slots, else null. */
    private final long[] zeros;
    private final StageProgram program;
    /**
     * The slots {@link FrameParser#parse} does not write (fields with no wire field: metadata,
     * intrinsics, bridged fields): all a packet about to be parsed needs zeroed.
     */
    private final int[] notFromFrame;
    /** The program's parser over a record's frame, and a record to give a frame to: made on a first {@link #parse}. */
    private FrameParser frames;
    private PacketRecord framed;

    public HeaderParser(StageProgram program) {
        this.program = program;
        int slots = program.fields().size();
        zeros = slots >= ZERO_COPY_MIN_SLOTS ? new long[slots] : null;
        notFromFrame = program.fields().stream().filter(f -> f.wireField() == null).mapToInt(f -> f.slot()).toArray();
    }

    /**
     * Loads the fields the program names by its parse graph from the record's frame (the
     * frame its decoded fields describe when it carries none; a frame the graph refuses
     * leaves them 0). For programs run pass by pass outside a switch; the switch runs
     * {@link FrameParser} itself.
     */
    public void parse(PacketRecord r, Phv phv) {
        if (frames == null) {
            frames = new FrameParser(program, PacketRecord.DEFAULT_FRAME_CAPACITY);
            framed = PacketRecord.allocate(PacketRecord.DEFAULT_FRAME_CAPACITY);
        }
        if (frames.loadsFields()) {
            framed.copyFrom(r);
            FrameSynthesizer.attachFrame(framed);
            frames.parse(framed.buffer().byteArray(), framed.offset() + PacketRecord.FRAME_OFFSET,
                    framed.capturedLength(), framed.wireLength(), phv.values());
        }
    }

    /**
     * A fresh packet: every slot zero, written once, the previous packet's uncommitted writes
     * forgotten (the switch then loads the header fields with {@link FrameParser}).
     */
    public void fresh(Phv phv) {
        phv.discardPendingWrites();
        long[] v = phv.values();
        if (zeros != null) {
            System.arraycopy(zeros, 0, v, 0, v.length); // a large PHV: one vector copy of zeros
        } else {
            Arrays.fill(v, 0L);
        }
    }

    /**
     * A fresh packet whose frame {@link FrameParser#parse} loads next: as {@link #fresh}, but
     * only the slots that parse does not write are zeroed here. An accepted parse writes every
     * field that has a wire field (0 for a field of a header it did not extract, each validity
     * bit 0 or 1), so the PHV is then exactly {@link #fresh}'s followed by the parse; after a
     * refused parse the header slots still hold an earlier packet's values, and the caller must
     * not read them (the switch drops the packet as a parser error).
     */
    public void freshBeforeFrameParse(Phv phv) {
        if (zeros != null) {
            fresh(phv); // a large PHV: one vector copy of zeros beats a slot-by-slot scatter (MIDST, JFR)
            return;
        }
        phv.discardPendingWrites();
        long[] v = phv.values();
        for (int s : notFromFrame) {
            v[s] = 0;
        }
    }
}
