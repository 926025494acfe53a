package dev.tickler.console;

import java.io.IOException;
import java.net.URL;

import org.htmlunit.WebClient;
import org.htmlunit.html.HtmlButton;
import org.htmlunit.html.HtmlPage;
import org.htmlunit.html.HtmlPasswordInput;

/** A browser without JavaScript over real HTTP, as the console must work in one (docs/contract.md#operator-console). */
final class ConsoleBrowser implements AutoCloseable {

    private final WebClient client = new WebClient();
    private final String base;

    ConsoleBrowser(URL base) {
        this.base = base.toString().replaceAll("/+$", "");
        client.getOptions().setJavaScriptEnabled(false);
        client.getOptions().setCssEnabled(false);
        client.getOptions().setThrowExceptionOnFailingStatusCode(false);
        client.getOptions().setRedirectEnabled(true);
    }

    HtmlPage open(String path) {
        try {
            return client.getPage(base + path);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Opens the console, is sent to sign in, and signs in with this key; answers the page that follows. */
    HtmlPage signIn(String key) {
        HtmlPage signIn = open("/ops");
        signIn.<HtmlPasswordInput>getHtmlElementById("key").setValue(key);
        return click(signIn, "sign-in");
    }

    static HtmlPage click(HtmlPage page, String buttonId) {
        try {
            return page.<HtmlButton>getHtmlElementById(buttonId).click();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    WebClient client() {
        return client;
    }

    @Override
    public void close() {
        client.close();
    }
}
