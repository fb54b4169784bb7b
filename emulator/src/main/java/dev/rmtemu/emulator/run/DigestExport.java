package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.engine.DigestSink;
import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.emulator.journal.JournalKinds;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.extern.Digest;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.runtime.Phv;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;

/**
 * Sends a switch's learning digests to the run's export journal ({@link DigestPayload}): one
 * message of kind {@code digest.NAME} per digest the ingress deparser sends, with the switch
 * and pipe. One buffer per digest, filled in place: nothing is allocated per packet.
 */
final class DigestExport implements DigestSink {
    private final ExportJournal journal;
    private final int switchId;
    private final int[] kinds;
    private final UnsafeBuffer[] buffers;
    private final int[] templateLength;
    private final Field[][] fields;

    private DigestExport(ExportJournal journal, int switchId, List<Digest> digests) {
        this.journal = journal;
        this.switchId = switchId;
        int n = digests.size();
        kinds = new int[n];
        buffers = new UnsafeBuffer[n];
        templateLength = new int[n];
        fields = new Field[n][];
        for (Digest d : digests) {
            byte[] t = DigestPayload.template(d);
            byte[] b = new byte[DigestPayload.length(t, d.fields().size())];
            System.arraycopy(t, 0, b, 0, t.length);
            kinds[d.id()] = journal.kinds().id(DigestPayload.kind(d));
            buffers[d.id()] = new UnsafeBuffer(b);
            templateLength[d.id()] = t.length;
            fields[d.id()] = d.fields().toArray(new Field[0]);
        }
    }

    /** Registers the kinds of {@code program}'s digests (before the journal is created: it copies its kinds). */
    static void register(JournalKinds kinds, StageProgram program) {
        for (Digest d : program.digests()) {
            try {
                kinds.register(DigestPayload.kind(d));
            } catch (IllegalArgumentException e) {
                throw new UserError("program " + program.name() + ": digest " + d.name() + " cannot name a journal kind ("
                        + e.getMessage() + ")");
            }
        }
    }

    /** The sink for a switch running {@code program}, or null when it has no digests or there is no journal. */
    static DigestExport of(ExportJournal journal, int switchId, StageProgram program) {
        return journal == null || program.digests().isEmpty() ? null : new DigestExport(journal, switchId, program.digests());
    }

    @Override
    public void digest(long cycle, int pipe, Digest digest, Phv phv) {
        int id = digest.id();
        UnsafeBuffer b = buffers[id];
        Field[] f = fields[id];
        for (int i = 0; i < f.length; i++) {
            DigestPayload.putValue(b, templateLength[id], i, phv.get(f[i]));
        }
        journal.append(kinds[id], cycle, switchId, pipe, b, 0, b.capacity());
    }
}
