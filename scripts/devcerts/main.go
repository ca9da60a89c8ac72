// Command devcerts writes a throw-away certificate authority and a server
// certificate signed by it, for the TLS listener scripts/broker.sh starts
// (RABBIT_TLS_DIR). Nothing here is fit for production: the CA's key is
// discarded once the server certificate is signed, and both expire quickly.
//
// Usage:
//
//	go run ./scripts/devcerts -out DIR [-hosts localhost,127.0.0.1,::1] [-days 1]
//
// DIR receives ca.pem (trust this), server.pem and server.key (mode 0600).
package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"flag"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	out := flag.String("out", "", "directory to write ca.pem, server.pem and server.key into (required)")
	hosts := flag.String("hosts", "localhost,127.0.0.1,::1", "comma-separated names and IPs the server certificate covers")
	days := flag.Int("days", 1, "validity in days")
	flag.Parse()
	if *out == "" || *days < 1 {
		fmt.Fprintln(os.Stderr, "devcerts: -out DIR is required and -days must be at least 1")
		os.Exit(2)
	}
	if err := run(*out, strings.Split(*hosts, ","), time.Duration(*days)*24*time.Hour); err != nil {
		fmt.Fprintln(os.Stderr, "devcerts:", err)
		os.Exit(1)
	}
}

// run writes the CA and the server certificate into dir.
func run(dir string, hosts []string, validity time.Duration) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	caCert, caKey, caDER, err := newCA(validity)
	if err != nil {
		return err
	}
	srvDER, srvKey, err := newServer(caCert, caKey, hosts, validity)
	if err != nil {
		return err
	}
	keyDER, err := x509.MarshalECPrivateKey(srvKey)
	if err != nil {
		return err
	}
	return writeAll(dir, map[string]*pem.Block{
		"ca.pem":     {Type: "CERTIFICATE", Bytes: caDER},
		"server.pem": {Type: "CERTIFICATE", Bytes: srvDER},
		"server.key": {Type: "EC PRIVATE KEY", Bytes: keyDER},
	})
}

// newCA makes a self-signed CA certificate.
func newCA(validity time.Duration) (*x509.Certificate, *ecdsa.PrivateKey, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, nil, err
	}
	tmpl := template("acemq-gen development CA (throw-away)", validity)
	tmpl.IsCA, tmpl.BasicConstraintsValid = true, true
	tmpl.KeyUsage = x509.KeyUsageCertSign | x509.KeyUsageCRLSign
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, nil, err
	}
	cert, err := x509.ParseCertificate(der)
	return cert, key, der, err
}

// newServer makes a server certificate for hosts signed by the CA.
func newServer(ca *x509.Certificate, caKey *ecdsa.PrivateKey, hosts []string, validity time.Duration) ([]byte, *ecdsa.PrivateKey, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	tmpl := template("acemq-gen development broker", validity)
	tmpl.KeyUsage = x509.KeyUsageDigitalSignature
	tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
	for _, h := range hosts {
		if ip := net.ParseIP(strings.TrimSpace(h)); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else if h = strings.TrimSpace(h); h != "" {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	return der, key, err
}

func template(cn string, validity time.Duration) *x509.Certificate {
	serial, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	now := time.Now()
	return &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: cn, Organization: []string{"acemq-gen development"}},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(validity),
	}
}

// writeAll writes each block to its file; keys are private to the owner.
func writeAll(dir string, files map[string]*pem.Block) error {
	for name, block := range files {
		mode := os.FileMode(0o644)
		if strings.HasSuffix(name, ".key") {
			mode = 0o600
		}
		if err := os.WriteFile(filepath.Join(dir, name), pem.EncodeToMemory(block), mode); err != nil {
			return err
		}
	}
	return nil
}
