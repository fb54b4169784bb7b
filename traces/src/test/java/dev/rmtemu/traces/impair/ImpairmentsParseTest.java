package dev.rmtemu.traces.impair;

import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ImpairmentsParseTest {
    private static boolean drops(Impairment imp, PacketRecord r, long index) {
        ImpairmentDecision d = new ImpairmentDecision();
        imp.decide(r, index, d);
        return d.dropped();
    }

    @Test
    void bernoulliFromSpecDecidesLikeTheClassWithTheSameSeed() {
        Impairment parsed = Impairments.parse("loss", "bernoulli:0.3", 99);
        BernoulliLoss direct = new BernoulliLoss(0.3, 99);
        PacketRecord r = PacketRecord.allocate();
        int dropped = 0;
        for (long i = 0; i < 1000; i++) {
            boolean d = drops(parsed, r, i);
            assertEquals(drops(direct, r, i), d);
            dropped += d ? 1 : 0;
        }
        assertTrue(dropped > 200 && dropped < 400, "dropped " + dropped);
        assertEquals("bernoulli(p=0.3)", parsed.describe());
    }

    @Test
    void gilbertDefaultsToTheGilbertModel() {
        assertEquals("gilbert-elliott(p=0.01, r=0.3, lossGood=0.0, lossBad=1.0)",
                Impairments.parse("loss", "gilbert:p=0.01,r=0.3", 1).describe());
    }

    @Test
    void blackholeWindowIsParsedInNanoseconds() {
        Impairment bh = Impairments.parse("blackhole", "dst=10.0.2.0/24,from=1ms,to=5ms", 1);
        PacketRecord r = PacketRecord.allocate().ipVersion(4).dstIpv4((10 << 24) | (2 << 8) | 7);
        assertFalse(drops(bh, r.timestampNs(999_999), 0));
        assertTrue(drops(bh, r.timestampNs(1_000_000), 0));
        assertTrue(drops(bh, r.timestampNs(4_999_999), 0));
        assertFalse(drops(bh, r.timestampNs(5_000_000), 0));
        r.dstIpv4((10 << 24) | (3 << 8) | 7).timestampNs(2_000_000);
        assertFalse(drops(bh, r, 0));
    }

    @Test
    void delayDupAndReorderParse() {
        assertEquals("delay-normal(mean=2000.0ns, sigma=500.0ns)", Impairments.parse("delay", "normal:mean=2us,sigma=500", 1).describe());
        assertEquals("delay-const-exp(c=1000.0ns, mean=3000000.0ns)", Impairments.parse("delay", "exp:const=1us,mean=3ms", 1).describe());
        assertEquals("duplicate(p=0.5)", Impairments.parse("dup", "0.5", 1).describe());
        assertEquals("reorder(p=0.1, sigma=2.0, max=8)", Impairments.parse("reorder", "normal:p=0.1,sigma=2,max=8", 1).describe());
        assertEquals(1500, Impairments.timeNs("1.5us", "t"));
        assertEquals(2_000_000_000L, Impairments.timeNs("2s", "t"));
    }

    @Test
    void badSpecsAreOneLineUserErrors() {
        UserError e = assertThrows(UserError.class, () -> Impairments.parse("loss", "bernoulli:1.5", 1));
        assertEquals("impairment loss=\"bernoulli:1.5\": probability 1.5 is not in [0, 1]", e.getMessage());
        assertThrows(UserError.class, () -> Impairments.parse("loss", "uniform:0.1", 1));
        assertThrows(UserError.class, () -> Impairments.parse("blackhole", "from=1ms", 1));
        assertThrows(UserError.class, () -> Impairments.parse("blackhole", "dst=10.0.0.0/8,colour=red", 1));
        assertThrows(UserError.class, () -> Impairments.parse("delay", "normal:mean=abc,sigma=1", 1));
        UserError k = assertThrows(UserError.class, () -> Impairments.parse("jitter", "1", 1));
        assertTrue(k.getMessage().startsWith("unknown impairment 'jitter'"));
    }
}
