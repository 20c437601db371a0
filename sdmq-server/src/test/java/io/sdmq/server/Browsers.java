package io.sdmq.server;

import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.htmlunit.WebClient;
import org.openqa.selenium.htmlunit.HtmlUnitDriver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The one place a test gets a browser: headless Chromium through chromedriver where Debian's {@code chromium} and
 * {@code chromium-driver} are installed, HtmlUnit with JavaScript otherwise, so the dashboard's tests run on any
 * machine. Which one is logged. Nothing is downloaded: the driver is the installed one, not Selenium Manager's.
 */
final class Browsers {
    private static final Logger log = LoggerFactory.getLogger(Browsers.class);
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private Browsers() {
    }

    /**
     * True when the tests run in Chromium, which can take screenshots: it is installed, and
     * {@code -Dsdmq.test.browser=htmlunit} does not ask for HtmlUnit (to try what a machine without Chromium runs).
     */
    static boolean chromium() {
        return !"htmlunit".equals(System.getProperty("sdmq.test.browser")) && Files.isExecutable(CHROMIUM)
                && Files.isExecutable(CHROMEDRIVER);
    }

    static WebDriver open() {
        if (!chromium()) {
            log.info("the dashboard's tests run on HtmlUnit (JavaScript on): no {} and {}, or asked for HtmlUnit",
                    CHROMIUM, CHROMEDRIVER);
            return new HtmlUnitDriver(true) {
                /** A script HtmlUnit cannot run (uPlot's) is logged, not thrown, and the page goes on. */
                @Override
                protected WebClient modifyWebClient(WebClient client) {
                    client.getOptions().setThrowExceptionOnScriptError(false);
                    return client;
                }
            };
        }
        log.info("the dashboard's tests run on headless Chromium ({} through {})", CHROMIUM, CHROMEDRIVER);
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync",
                "--user-data-dir=" + freshProfile());
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().window().setSize(new Dimension(1400, 900));
        return driver;
    }

    private static String freshProfile() {
        try {
            Path profile = Files.createTempDirectory("sdmq-chromium-");
            profile.toFile().deleteOnExit();
            return profile.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
