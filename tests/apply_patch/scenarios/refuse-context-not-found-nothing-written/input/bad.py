def main():
    total = 1
    return total
