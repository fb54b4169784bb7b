package dev.rmtemu.programs.midst.reference;

import dev.rmtemu.programs.midst.control.MidstSwitch;
import dev.rmtemu.programs.midst.experiment.MidstTestTraffic;
import dev.rmtemu.programs.midst.experiment.MidstTraffic;
import dev.rmtemu.programs.midst.program.MidstConfig;
import dev.rmtemu.programs.midst.program.MidstPipeline;

import dev.rmtemu.model.runtime.Phv;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The stage program against the plain-Java reference, packet by packet, on random congested traffic. */
class MidstReferenceEquivalenceTest {

    @Test
    void stageProgramMatchesReferenceOnRandomTraffic() {
        for (int variant = 1; variant <= MidstConfig.MAX_ROWS + 1; variant++) {
            // rows 1..4 with dirty words, then 2 rows cleaned counter by counter
            int rows = variant <= MidstConfig.MAX_ROWS ? variant : 2;
            MidstConfig cfg = MidstConfig.defaults().withRows(rows, 256).withDirtyWords(variant <= MidstConfig.MAX_ROWS);
            MidstSwitch sw = MidstTestTraffic.newSwitch(cfg, 150);
            sw.monitorAlways();
            MidstReference ref = new MidstReference(cfg);
            MidstTraffic.Spec spec = MidstTestTraffic.spec(1_500, 0.9, 5_000, 2, 3_000_000, 100 + variant);
            int total = (int) spec.totalPackets();
            int[][] idx = new int[total][rows];
            long[][] u = new long[total][rows];
            long[] umin = new long[total];
            MidstPipeline p = sw.pipeline();
            long[] checked = {0};
            final int r0 = rows;
            sw.onDeparture((c, port, s, pool) -> {
                Phv phv = pool.phv(s);
                int g = pool.record(s).payloadHash();
                for (int i = 0; i < r0; i++) {
                    assertEquals(idx[g][i], phv.get(p.brIndex[i]), "index row " + i);
                    assertEquals(u[g][i], phv.get(p.brU[i]), "u row " + i);
                }
                assertEquals(umin[g], phv.get(p.brUmin));
                assertEquals(ref.egress(idx[g], u[g]), phv.get(p.lossEstimate), "estimate of packet " + g);
                checked[0]++;
            });
            MidstTraffic t = new MidstTraffic(spec);
            PacketRecord r = PacketRecord.allocate();
            while (t.next(r)) {
                int g = r.payloadHash();
                umin[g] = ref.ingress(r, idx[g], u[g]);
                sw.engine().arrive(sw.engine().clock().nsToCycles(r.timestampNs()), r.ingressPort(), r);
            }
            sw.engine().drain();
            assertTrue(checked[0] > 5_000 && checked[0] < total, "rows " + rows + ": departures " + checked[0]);
            // final sketches agree cell by cell
            for (int i = 0; i < rows; i++) {
                long[] in = sw.engine().state().snapshot(0, MidstPipeline.inCount(i));
                long[] out = sw.engine().state().snapshot(0, MidstPipeline.outCount(i));
                for (int j = 0; j < cfg.columns(); j++) {
                    assertEquals(ref.inCounter(i, j), in[j]);
                    assertEquals(ref.outCounter(i, j), out[j]);
                }
            }
        }
    }
}
