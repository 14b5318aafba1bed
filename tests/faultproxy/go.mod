module sextantd.test/faultproxy

go 1.26.0
