package dev.rmtemu.programs.wbmon;

import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.replay.NetworkReplay;
import dev.rmtemu.emulator.replay.ProgramReport;
import dev.rmtemu.emulator.replay.ReplayResult;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.emulator.topology.VConn;
import dev.rmtemu.emulator.topology.VConns;
import dev.rmtemu.model.program.StageProgram;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * WBMon's section of {@code rmtemu replay}: per vconn, read from the m-switches'
 * registers after the run (every pipe), the packets its upstream numbered, the
 * packets and drops its downstream counted, and how far the downstream has judged
 * (sequence numbers below the slot to clean; later ones may still be counted).
 * Vconn ids are positions in {@link VConns#vconns}, as {@link WbmonControlPlane}
 * assigns them; the window parameters come from the switch's program.
 */
public final class WbmonReport implements ProgramReport {
    @Override
    public String program() {
        return WbmonProgram.NAME;
    }

    /** What the registers say about one vconn. */
    public record Row(int vconn, String path, long numbered, long received, long drops, long judgedBelow) {
        /** Drops per judged sequence number, 0 before anything was judged. */
        public double dropRate() {
            return judgedBelow == 0 ? 0 : (double) drops / judgedBelow;
        }
    }

    /** The window configuration a switch's {@code wbmon} program was built with. */
    static WbmonConfig config(StageProgram p) {
        return new WbmonConfig(Integer.parseInt(p.params().get("vconns")), Integer.parseInt(p.params().get("registers")),
                Integer.parseInt(p.params().get("bits")), Integer.parseInt(p.params().get("tolerance")));
    }

    /** Every vconn of the network whose two ends run {@code wbmon} and whose id the program tracks. */
    public static List<Row> rows(NetworkEngine net) {
        Topology t = net.topology();
        List<VConn> vc = VConns.vconns(t);
        List<Row> out = new ArrayList<>();
        for (int id = 0; id < vc.size(); id++) {
            VConn v = vc.get(id);
            String up = t.node(v.from()).name();
            String down = t.node(v.to()).name();
            if (!runsWbmon(net, up) || !runsWbmon(net, down)) {
                continue;
            }
            SwitchEngine upEngine = net.switchEngine(up);
            SwitchEngine downEngine = net.switchEngine(down);
            WbmonConfig c = config(downEngine.state().program());
            if (id >= c.vconns() || id >= config(upEngine.state().program()).vconns()) {
                continue;
            }
            long judged = 0; // one pipe receives the vconn; the others never started it
            for (int p = 0; p < downEngine.state().pipes(); p++) {
                if (downEngine.state().readRegister(p, WbmonPipeline.STARTED, id) != 0) {
                    judged = (downEngine.state().readRegister(p, WbmonPipeline.TO_CLEAN, id)
                            - (long) c.tolerance() * c.bitsPerRegister()) & WbmonPipeline.SEQ_MASK;
                }
            }
            out.add(new Row(id, WbmonControlPlane.describe(t, v), WbmonDeployment.readAllPipes(upEngine, WbmonPipeline.NEXT_SEQ, id),
                    WbmonDeployment.readAllPipes(downEngine, WbmonPipeline.PACKETS, id),
                    WbmonPipeline.readDrops(downEngine, c, id), judged));
        }
        return out;
    }

    private static boolean runsWbmon(NetworkEngine net, String name) {
        for (int s = 0; s < net.switchCount(); s++) {
            if (net.switchNode(s).name().equals(name)) {
                return WbmonProgram.NAME.equals(net.switchProgram(s));
            }
        }
        return false;
    }

    @Override
    public String summarizeNetwork(NetworkReplay.Result result) {
        List<Row> rows = rows(result.network());
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "WBMon per vconn (registers of every pipe; judged = sequence numbers below the slot to clean)%n"));
        b.append(String.format(Locale.ROOT, "  %5s  %-32s %12s %12s %10s %12s %9s%n", "vconn", "path", "numbered", "received",
                "drops", "judged", "drop %"));
        long numbered = 0;
        for (Row r : rows) {
            numbered += r.numbered();
            b.append(String.format(Locale.ROOT, "  %5d  %-32s %12d %12d %10d %12d %9.4f%n", r.vconn(), r.path(), r.numbered(),
                    r.received(), r.drops(), r.judgedBelow(), 100 * r.dropRate()));
        }
        if (rows.isEmpty()) {
            b.append("  no vconn between two m-switches running wbmon\n");
        } else if (numbered == 0) {
            b.append("  nothing numbered: the port tables are empty; write them with"
                    + " 'rmtemu experiment wbmon --opt control=FILE --opt topology=SPEC' and pass --control FILE\n");
        }
        return b.toString();
    }

    /**
     * A single-switch replay has no vconn: no packet arrives with a WBMon header (there is no
     * upstream) and {@code wbmon} leaves forwarding to the network's routing, so there is nothing to report.
     */
    @Override
    public String summarize(ReplayResult result) {
        return "WBMon: a single switch has no vconns (no packet carries a WBMon header); replay a network with --topology"
                + " and the control script from 'rmtemu experiment wbmon --opt control=FILE --opt topology=SPEC'\n";
    }
}
