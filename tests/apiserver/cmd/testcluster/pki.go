package main

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"time"
)

// keyPair is a certificate with its key, both PEM encoded.
type keyPair struct {
	cert    *x509.Certificate
	key     crypto.Signer
	certPEM []byte
	keyPEM  []byte
}

// pki is every credential one cluster run uses. All of it is made anew on
// each start; nothing is persisted between runs except by being written to
// --dir.
type pki struct {
	serverCA    *keyPair // signs the serving certificate; ca.crt
	serving     *keyPair // kube-apiserver's serving certificate
	clientCA    *keyPair // --client-ca-file
	admin       *keyPair // client cert cert-admin / system:masters
	wrongCA     *keyPair // trusted by nobody
	wrongClient *keyPair // cert-admin / system:masters signed by wrongCA
	saKeyPEM    []byte   // service-account signing key (RSA, PKCS#1)
	saPubPEM    []byte   // its public key (PKIX)
}

func newSerial() (*big.Int, error) {
	return rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 126))
}

func newCert(tmpl *x509.Certificate, parent *keyPair) (*keyPair, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	serial, err := newSerial()
	if err != nil {
		return nil, err
	}
	tmpl.SerialNumber = serial
	tmpl.NotBefore = time.Now().Add(-time.Hour)
	tmpl.NotAfter = time.Now().Add(10 * 365 * 24 * time.Hour)
	tmpl.BasicConstraintsValid = true
	signerCert, signerKey := tmpl, crypto.Signer(key)
	if parent != nil {
		signerCert, signerKey = parent.cert, parent.key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, signerCert, key.Public(), signerKey)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, err
	}
	return &keyPair{
		cert:    cert,
		key:     key,
		certPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		keyPEM:  pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}),
	}, nil
}

func newCA(cn string) (*keyPair, error) {
	return newCert(&x509.Certificate{
		Subject:  pkix.Name{CommonName: cn, Organization: []string{"sextantd tests"}},
		IsCA:     true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
	}, nil)
}

func newClientCert(ca *keyPair, user string, groups ...string) (*keyPair, error) {
	return newCert(&x509.Certificate{
		Subject:     pkix.Name{CommonName: user, Organization: groups},
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}, ca)
}

func newPKI() (*pki, error) {
	var p pki
	var err error
	if p.serverCA, err = newCA("sextant-test-server-ca"); err != nil {
		return nil, err
	}
	if p.serving, err = newCert(&x509.Certificate{
		Subject:     pkix.Name{CommonName: "kube-apiserver"},
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("::1"), net.ParseIP("10.0.0.1")},
		DNSNames: []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc",
			"kubernetes.default.svc.cluster.local"},
	}, p.serverCA); err != nil {
		return nil, err
	}
	if p.clientCA, err = newCA("sextant-test-client-ca"); err != nil {
		return nil, err
	}
	if p.admin, err = newClientCert(p.clientCA, "cert-admin", "system:masters"); err != nil {
		return nil, err
	}
	if p.wrongCA, err = newCA("sextant-test-untrusted-ca"); err != nil {
		return nil, err
	}
	if p.wrongClient, err = newClientCert(p.wrongCA, "cert-admin", "system:masters"); err != nil {
		return nil, err
	}
	sa, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	pub, err := x509.MarshalPKIXPublicKey(&sa.PublicKey)
	if err != nil {
		return nil, err
	}
	p.saKeyPEM = pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(sa)})
	p.saPubPEM = pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub})
	return &p, nil
}

func newToken() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("token: %w", err)
	}
	return hex.EncodeToString(b), nil
}
