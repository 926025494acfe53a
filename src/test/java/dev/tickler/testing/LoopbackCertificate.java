package dev.tickler.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.vertx.core.net.PfxOptions;

/**
 * A self-signed server certificate for 127.0.0.1 and localhost, made by the JDK's keytool for each run, so that a
 * stand-in can speak TLS as the real party does: its key store for the server, and a trust store holding only this
 * certificate for the client that should trust it. Nobody else trusts it; the files go when the JVM exits.
 *
 * @param keyStore   PKCS#12, the server's key and certificate
 * @param trustStore PKCS#12, the certificate alone
 * @param password   of both stores
 */
public record LoopbackCertificate(Path keyStore, Path trustStore, String password) {

    private static final String ALIAS = "loopback";

    /** A new key pair and certificate, valid from now for two days, in files of a new temporary folder. */
    public static LoopbackCertificate create() {
        try {
            Path folder = Files.createTempDirectory("loopback-certificate");
            Path keyStore = folder.resolve("server.p12");
            Path trustStore = folder.resolve("trust.p12");
            // deleted in the reverse order: the files, then the folder
            for (Path made : List.of(folder, keyStore, trustStore)) {
                made.toFile().deleteOnExit();
            }
            String password = "loopback-" + Long.toHexString(System.nanoTime());
            keytool(List.of("-genkeypair", "-alias", ALIAS, "-keyalg", "EC", "-groupname", "secp256r1",
                    "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2",
                    "-storetype", "PKCS12", "-keystore", keyStore.toString(), "-storepass", password));
            writeTrustStore(keyStore, trustStore, password);
            return new LoopbackCertificate(keyStore, trustStore, password);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The server side, for a Vert.x server's TLS options. */
    public PfxOptions serverOptions() {
        return new PfxOptions().setPath(keyStore.toString()).setPassword(password);
    }

    /** The JVM's trust store set to the certificate alone: system properties for a process that should trust it. */
    public Map<String, String> trustedByTheJvm() {
        return Map.of("javax.net.ssl.trustStore", trustStore.toString(), "javax.net.ssl.trustStorePassword", password,
                "javax.net.ssl.trustStoreType", "PKCS12");
    }

    private static void keytool(List<String> arguments) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(arguments);
        Process keytool = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String output = new String(keytool.getInputStream().readAllBytes());
            if (!keytool.waitFor(30, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
                throw new IllegalStateException("keytool failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void writeTrustStore(Path keyStore, Path trustStore, String password)
            throws IOException, GeneralSecurityException {
        KeyStore server = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keyStore)) {
            server.load(in, password.toCharArray());
        }
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry(ALIAS, server.getCertificate(ALIAS));
        try (OutputStream out = Files.newOutputStream(trustStore)) {
            trust.store(out, password.toCharArray());
        }
    }
}
